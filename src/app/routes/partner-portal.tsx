import { PageIntro } from '@/components/layout/page-intro';

export default function PartnerPortalPage() {
  return (
    <main>
      <PageIntro eyebrow="Partner portal" title="Your referrals, commissions and assets">
        <p>Sign in to see your referral link, the leads you brought in and what you have earned.</p>
      </PageIntro>
    </main>
  );
}
