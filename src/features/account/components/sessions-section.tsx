import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { showToast } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { signOut, type SignOutScope } from '@/lib/auth/sign-out';

/** The three sign-out scopes: this device, every other device, everywhere. */
export function SessionsSection() {
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const run = async (scope: SignOutScope) => {
    setProblem(null);
    setIsBusy(true);
    try {
      await signOut(scope);
      if (scope === 'others') void showToast('success', 'Your other devices are signed out.');
      else void navigate(`${paths.auth}?notice=signed-out`, { replace: true });
    } catch (error) {
      setProblem(describeAuthError(error).message);
      throw error;
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Card
      id="sessions"
      title="Where you are signed in"
      description="Lost a phone, or used a shared computer? Sign the other devices out."
    >
      {problem ? (
        <Alert tone="error" className="mb-5 max-w-xl">
          {problem}
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button
          variant="secondary"
          disabled={isBusy}
          onClick={() => void run('local').catch(() => undefined)}
        >
          Sign out of this device
        </Button>
        <Button
          variant="secondary"
          disabled={isBusy}
          onClick={() => void run('others').catch(() => undefined)}
        >
          Sign out of other devices
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
