import { PageIntro } from '@/components/layout/page-intro';

export default function DashboardPage() {
  return (
    <main>
      <title>Dashboard · Cervana</title>
      <PageIntro eyebrow="Dashboard" title="Your phone agent at a glance">
        <p>Calls answered, issues resolved and hand-offs to your CSMs, in one place.</p>
      </PageIntro>
    </main>
  );
}
