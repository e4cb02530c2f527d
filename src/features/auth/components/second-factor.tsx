import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { signOut } from '@/lib/auth/sign-out';
import { findTotpFactor, verifySecondFactor } from '../api/second-factor';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';

/** The second step when the account has a verified authenticator app: the session goes to aal2. */
export function SecondFactor() {
  const [factor, setFactor] = useState<{ id: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let isCurrent = true;
    findTotpFactor().then(
      (found) => {
        if (!isCurrent) return;
        if (found) setFactor(found);
        else
          setProblem('This account has no authenticator app to check. Sign out and sign in again.');
      },
      (error: unknown) => isCurrent && setProblem(describeAuthError(error).message),
    );
    return () => {
      isCurrent = false;
    };
  }, []);

  return (
    <AuthCard
      title="Enter your authentication code"
      description={
        <p>
          Your account is protected with two-factor authentication. Open your authenticator app and
          enter the 6-digit code it shows for Cervana.
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
      {factor ? (
        <CodeForm
          id="second-factor-code"
          label="Authentication code"
          submitLabel="Verify"
          onVerify={(code) => verifySecondFactor(factor.id, code)}
        />
      ) : problem ? null : (
        <p role="status" className="text-ink-600">
          Loading...
        </p>
      )}
    </AuthCard>
  );
}
