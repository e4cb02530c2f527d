import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useHydrated } from '@/lib/use-hydrated';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { browserHasPasskeys } from '@/lib/auth/browser-passkeys';
import { signInWithPasskey } from '../api/sign-in-with-passkey';

/** "Sign in with a passkey": offered only where the browser can use one. */
export function PasskeySignIn() {
  const isHydrated = useHydrated();
  const [isBusy, setIsBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!isHydrated || !browserHasPasskeys()) return null;

  const handleClick = async () => {
    setProblem(null);
    setIsBusy(true);
    try {
      await signInWithPasskey();
    } catch (error) {
      setProblem(describeAuthError(error).message);
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-3 text-sm text-ink-600" aria-hidden="true">
        <span className="h-px flex-1 bg-sand-200" />
        or
        <span className="h-px flex-1 bg-sand-200" />
      </div>
      <Button
        type="button"
        variant="secondary"
        onClick={() => void handleClick()}
        disabled={isBusy}
        aria-busy={isBusy || undefined}
      >
        <KeyRound aria-hidden="true" className="size-4" />
        {isBusy ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </Button>
      <div aria-live="polite">{problem ? <Alert tone="error">{problem}</Alert> : null}</div>
    </div>
  );
}
