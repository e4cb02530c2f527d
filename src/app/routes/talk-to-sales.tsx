import { PageIntro } from '@/components/layout/page-intro';

export default function TalkToSalesPage() {
  return (
    <main>
      <PageIntro eyebrow="Talk to Sales" title="Talk to our sales team">
        <p>
          Tell us about your customer success team and we will come back within one business day.
        </p>
      </PageIntro>
    </main>
  );
}
