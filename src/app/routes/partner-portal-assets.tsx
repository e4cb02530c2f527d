import { PortalPage } from '@/components/layout/portal-page';
import { PartnerOnly } from '@/features/partners/components/partner-only';

/** The partner portal's marketing assets page. */
export default function PartnerAssetsPage() {
  return (
    <PartnerOnly>
      <PortalPage
        eyebrow="Partner portal"
        title="Marketing assets"
        description={<p>Logos, the one-pager and the deck.</p>}
      />
    </PartnerOnly>
  );
}
