import { PageIntro } from '@/components/layout/page-intro';

export default function PartnerPage() {
  return (
    <main>
      <PageIntro eyebrow="Partners" title="Grow with the Cervana partner program">
        <p>
          Refer customer success teams to Cervana and earn recurring commission on every account you
          bring.
        </p>
      </PageIntro>
    </main>
  );
}
