import { KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { signOut } from '@/lib/auth/sign-out';
import {
  findSecondFactors,
  verifySecondFactor,
  verifyWithSecurityKey,
  type SecondFactors,
} from '../api/second-factor';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';

function SecurityKeyButtons({ keys }: { keys: SecondFactors['securityKeys'] }) {
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const use = async (factorId: string) => {
    setProblem(null);
    setPendingId(factorId);
    try {
      await verifyWithSecurityKey(factorId);
    } catch (error) {
      setProblem(describeAuthError(error).message);
    } finally {
      setPendingId(null);
    }
  };

  return (
    <div className="grid gap-3">
      {keys.map((key) => (
        <Button
          key={key.id}
          onClick={() => void use(key.id)}
          disabled={pendingId !== null}
          aria-busy={pendingId === key.id || undefined}
        >
          <KeyRound aria-hidden="true" className="size-4" />
          {pendingId === key.id
            ? 'Waiting for your key...'
            : keys.length > 1
              ? `Use ${key.friendlyName || 'your security key'}`
              : 'Use your security key'}
        </Button>
      ))}
      <div aria-live="polite">{problem ? <Alert tone="error">{problem}</Alert> : null}</div>
    </div>
  );
}

/** The second step when the account has a verified second factor: the session goes to aal2. */
export function SecondFactor() {
  const [factors, setFactors] = useState<SecondFactors | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let isCurrent = true;
    findSecondFactors().then(
      (found) => {
        if (!isCurrent) return;
        if (found.totp || found.securityKeys.length > 0) setFactors(found);
        else setProblem('This account has no second factor to check. Sign out and sign in again.');
      },
      (error: unknown) => isCurrent && setProblem(describeAuthError(error).message),
    );
    return () => {
      isCurrent = false;
    };
  }, []);

  const hasKeys = (factors?.securityKeys.length ?? 0) > 0;
  const totp = factors?.totp ?? null;
  return (
    <AuthCard
      title={totp || !hasKeys ? 'Enter your authentication code' : 'Confirm with your security key'}
      description={
        <p>
          Your account is protected with two-factor authentication.{' '}
          {totp
            ? 'Open your authenticator app and enter the 6-digit code it shows for Cervana.'
            : hasKeys
              ? 'Use the security key you set up for Cervana.'
              : null}
        </p>
      }
      footer={
        <button
          type="button"
          onClick={() => void signOut('local')}
          className="font-semibold text-azure-700 hover:underline"
        >
          Sign out and use another account
        </button>
      }
    >
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      {factors ? (
        <div className="grid gap-5">
          {totp ? (
            <CodeForm
              id="second-factor-code"
              label="Authentication code"
              submitLabel="Verify"
              onVerify={(code) => verifySecondFactor(totp.id, code)}
            />
          ) : null}
          {totp && hasKeys ? (
            <div className="flex items-center gap-3 text-sm text-ink-600" aria-hidden="true">
              <span className="h-px flex-1 bg-sand-200" />
              or
              <span className="h-px flex-1 bg-sand-200" />
            </div>
          ) : null}
          {hasKeys ? <SecurityKeyButtons keys={factors.securityKeys} /> : null}
        </div>
      ) : problem ? null : (
        <p role="status" className="text-ink-600">
          Loading...
        </p>
      )}
    </AuthCard>
  );
}
