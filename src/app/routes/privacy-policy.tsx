import { PageIntro } from '@/components/layout/page-intro';

export default function PrivacyPolicyPage() {
  return (
    <main>
      <title>Privacy policy · Cervana</title>
      <PageIntro eyebrow="Legal" title="Privacy policy">
        <p>
          How Cervana handles call recordings, transcripts and the personal data of your customers.
        </p>
      </PageIntro>
    </main>
  );
}
