import { PageIntro } from '@/components/layout/page-intro';

export default function DashboardPage() {
  return (
    <main>
      <PageIntro eyebrow="Dashboard" title="Your phone agent at a glance">
        <p>Calls answered, issues resolved and hand-offs to your CSMs, in one place.</p>
      </PageIntro>
    </main>
  );
}
