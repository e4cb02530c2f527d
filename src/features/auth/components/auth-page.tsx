import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { RouteLoading } from '@/components/ui/route-loading';
import { paths } from '@/config/paths';
import { rememberNextPath } from '@/lib/auth/remembered-next';
import { homePathFor, needsSecondFactor, roleOf, safeNextPath } from '@/lib/auth/roles';
import { useAuth } from '@/lib/auth/use-auth';
import { authHref, parseAuthMode } from '../model/auth-href';
import type { Contact } from '../model/contact';
import { AuthCard } from './auth-card';
import { CodeSignIn } from './code-sign-in';
import { ConfirmSignUp } from './confirm-sign-up';
import { ForgotPassword } from './forgot-password';
import { ResetPassword } from './reset-password';
import { SecondFactor } from './second-factor';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';
import { TextLink } from './text-link';

type Reachable = Extract<Contact, { kind: 'email' | 'phone' }>;

const NOTICES: Record<string, { tone: 'success' | 'error'; text: string }> = {
  'signed-out': { tone: 'success', text: 'You are signed out.' },
  'link-invalid': {
    tone: 'error',
    text: 'That link has expired or was already used. Sign in, or ask for a new link below.',
  },
};

function contextLine(next: string | null) {
  if (next?.startsWith(paths.partnerPortal)) {
    return (
      <p>
        Sign in to see your referrals and commissions. Not a partner yet?{' '}
        <Link to={paths.partner} className="font-semibold text-azure-700 underline">
          See the partner program
        </Link>
        .
      </p>
    );
  }
  if (next?.startsWith(paths.admin)) return <p>Sign in with your Cervana team account.</p>;
  return <p>See what your phone agent handled today, and everything it handed to your team.</p>;
}

/** /auth: every step of signing up and in, chosen by `?mode=` and the auth state. */
export function AuthPage() {
  const [searchParams] = useSearchParams();
  const auth = useAuth();
  const mode = parseAuthMode(searchParams.get('mode'));
  const next = safeNextPath(searchParams.get('next'));
  const notice = NOTICES[searchParams.get('notice') ?? ''];
  const [pending, setPending] = useState<{ contact: Reachable; isJustSent: boolean } | null>(null);

  if (auth.loading) return <RouteLoading />;
  if (auth.user) {
    // With two factors on, even a recovery session must pass the second step before a password change.
    if (needsSecondFactor(auth.session)) return <SecondFactor />;
    if (auth.isRecoveringPassword) return <ResetPassword />;
    return <Navigate to={next ?? homePathFor(roleOf(auth.user))} replace />;
  }
  if (pending) {
    return <ConfirmSignUp {...pending} onBack={() => setPending(null)} />;
  }

  const noticeAlert = notice ? (
    <Alert tone={notice.tone} className="mb-6">
      {notice.text}
    </Alert>
  ) : null;

  switch (mode) {
    case 'code':
      return <CodeSignIn next={next} />;
    case 'forgot':
      return <ForgotPassword next={next} />;
    case 'reset':
      // A reset link that produced no session: it was used up or expired.
      return (
        <AuthCard
          title="This reset link has expired"
          footer={<TextLink to={authHref('forgot', next)}>Ask for a new link</TextLink>}
        >
          <p className="text-ink-700">
            Reset links work once and for an hour. Ask for a new one and use the newest email.
          </p>
        </AuthCard>
      );
    case 'sign-up':
      return (
        <AuthCard
          title="Create your Cervana account"
          description={<p>Set up your workspace in a minute. No card needed.</p>}
          footer={
            <>
              Already have an account? <TextLink to={authHref('sign-in', next)}>Sign in</TextLink>
            </>
          }
        >
          {noticeAlert}
          <SignUpForm
            onConfirmationSent={(contact) => {
              rememberNextPath(next);
              setPending({ contact, isJustSent: true });
            }}
          />
        </AuthCard>
      );
    case 'sign-in':
      return (
        <AuthCard
          title="Sign in to Cervana"
          description={contextLine(next)}
          footer={
            <>
              New to Cervana? <TextLink to={authHref('sign-up', next)}>Create an account</TextLink>
            </>
          }
        >
          {noticeAlert}
          <SignInForm
            next={next}
            onNeedsConfirmation={(contact) => setPending({ contact, isJustSent: false })}
          />
        </AuthCard>
      );
  }
}
