import { PortalPage } from '@/components/layout/portal-page';
import { AssetList } from '@/features/partners/components/asset-list';
import { PartnerOnly } from '@/features/partners/components/partner-only';

/** The partner portal's marketing assets page. */
export default function PartnerAssetsPage() {
  return (
    <PartnerOnly>
      <PortalPage
        eyebrow="Partner portal"
        title="Marketing assets"
        description={<p>Logos, the one-pager and the deck, ready to use with your clients.</p>}
      >
        <AssetList />
      </PortalPage>
    </PartnerOnly>
  );
}
