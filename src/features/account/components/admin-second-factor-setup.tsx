import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { showToast } from '@/components/ui/toaster';
import { describeAuthError } from '@/lib/auth/auth-error-message';
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
      description="Once it is set up, signing in to the admin area asks for your password and a code from the app."
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
        <Button
          onClick={() => void handleStart()}
          disabled={isStarting}
          aria-busy={isStarting || undefined}
        >
          {isStarting ? 'Preparing...' : 'Set up an authenticator app'}
        </Button>
      )}
    </Card>
  );
}
