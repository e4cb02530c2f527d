import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { paths } from '@/config/paths';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { signOut, type SignOutScope } from '@/lib/auth/sign-out';

type Outcome = { tone: 'success' | 'error'; text: string } | null;

/** The three sign-out scopes: this device, every other device, everywhere. */
export function SessionsSection() {
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [pendingScope, setPendingScope] = useState<SignOutScope | null>(null);
  const isBusy = pendingScope !== null;

  const run = async (scope: SignOutScope) => {
    setOutcome(null);
    setPendingScope(scope);
    try {
      await signOut(scope);
      if (scope === 'others')
        setOutcome({ tone: 'success', text: 'Signed out of every other device and browser.' });
      else void navigate(`${paths.auth}?notice=signed-out`, { replace: true });
    } catch (error) {
      setOutcome({ tone: 'error', text: describeAuthError(error).message });
      throw error;
    } finally {
      setPendingScope(null);
    }
  };

  return (
    <Card
      id="sessions"
      title="Sessions"
      description="Lost a phone, or used a shared computer? Sign out everywhere else: this browser stays signed in."
    >
      {/* Present from the start, so the outcome is announced when it appears. */}
      <div aria-live="polite">
        {outcome ? (
          <Alert tone={outcome.tone} className="mb-5 max-w-xl">
            {outcome.text}
          </Alert>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button
          disabled={isBusy}
          aria-busy={pendingScope === 'others'}
          onClick={() => void run('others').catch(() => undefined)}
        >
          {pendingScope === 'others' ? 'Signing out...' : 'Sign out everywhere else'}
        </Button>
        <Button
          variant="secondary"
          disabled={isBusy}
          aria-busy={pendingScope === 'local'}
          onClick={() => void run('local').catch(() => undefined)}
        >
          {pendingScope === 'local' ? 'Signing out...' : 'Sign out of this device'}
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="secondary" disabled={isBusy}>
              Sign out everywhere
            </Button>
          }
          title="Sign out everywhere?"
          description={<p>Every device, this one included, will need to sign in again.</p>}
          confirmLabel="Sign out everywhere"
          busyLabel="Signing out..."
          onConfirm={() => run('global')}
        />
      </div>
    </Card>
  );
}
