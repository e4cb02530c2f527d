import { PageIntro } from '@/components/layout/page-intro';

export default function DemoPage() {
  return (
    <main>
      <title>Book a demo · Cervana</title>
      <PageIntro eyebrow="Book a demo" title="See Cervana answer a real customer call">
        <p>
          Pick a 30-minute slot that suits you and we will walk you through Cervana on your own use
          cases.
        </p>
      </PageIntro>
    </main>
  );
}
