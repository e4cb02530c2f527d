import { PageIntro } from '@/components/layout/page-intro';

export default function AuthPage() {
  return (
    <main>
      <PageIntro eyebrow="Account" title="Sign in to Cervana">
        <p>Sign in or create an account to see what your phone agent did today.</p>
      </PageIntro>
    </main>
  );
}
