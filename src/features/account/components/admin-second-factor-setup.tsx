import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { showToast } from '@/components/ui/toaster';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { browserHasPasskeys } from '@/lib/auth/browser-passkeys';
import { addSecurityKey } from '../api/security-keys';
import { enrolTotp, type TotpEnrolment } from '../api/two-factor';
import { TotpEnrolmentForm } from './totp-enrolment-form';

/**
 * What an admin without a second factor sees instead of the admin area: why,
 * and the set-up of an authenticator app. Verifying its first code raises the
 * session to aal2, the session's user then has a verified factor, and the
 * page they asked for renders in place of this one.
 */
export function AdminSecondFactorSetup() {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isStarting, setIsStarting] = useState(false);
  const [isAddingKey, setIsAddingKey] = useState(false);

  const handleSecurityKey = async () => {
    setProblem(null);
    setIsAddingKey(true);
    try {
      await addSecurityKey('');
      void showToast('success', 'Security key added. Welcome to the admin area.');
    } catch (error) {
      setProblem(describeAuthError(error).message);
    } finally {
      setIsAddingKey(false);
    }
  };

  const handleStart = async () => {
    setProblem(null);
    setIsStarting(true);
    try {
      setEnrolment(await enrolTotp());
    } catch (error) {
      setProblem(describeAuthError(error).message);
    } finally {
      setIsStarting(false);
    }
  };

  return (
    <Card
      id="admin-two-factor"
      title="Set up an authenticator app"
      description="Once it is set up, signing in to the admin area asks for your password and then a code from the app, or your security key."
    >
      {problem ? (
        <Alert tone="error" className="mb-5 max-w-xl">
          {problem}
        </Alert>
      ) : null}
      {enrolment ? (
        <TotpEnrolmentForm
          enrolment={enrolment}
          onDone={async () => {
            setEnrolment(null);
            void showToast(
              'success',
              'Two-factor authentication is on. Welcome to the admin area.',
            );
          }}
          onCancel={() => setEnrolment(null)}
        />
      ) : (
        <div className="flex flex-wrap gap-3">
          <Button
            onClick={() => void handleStart()}
            disabled={isStarting || isAddingKey}
            aria-busy={isStarting || undefined}
          >
            {isStarting ? 'Preparing...' : 'Set up an authenticator app'}
          </Button>
          {browserHasPasskeys() ? (
            <Button
              variant="secondary"
              onClick={() => void handleSecurityKey()}
              disabled={isStarting || isAddingKey}
              aria-busy={isAddingKey || undefined}
            >
              {isAddingKey ? 'Waiting for your key...' : 'Use a security key instead'}
            </Button>
          ) : null}
        </div>
      )}
    </Card>
  );
}
