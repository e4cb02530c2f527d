import type { Factor } from '@supabase/supabase-js';
import { ShieldCheck } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { showToast } from '@/components/ui/toaster';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { SECURITY_KEYS_KEY, listSecurityKeys } from '../api/security-keys';
import { enrolTotp, listTotpFactors, removeFactor, type TotpEnrolment } from '../api/two-factor';
import { FactorItem } from './factor-item';
import { TotpEnrolmentForm } from './totp-enrolment-form';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const TOTP_FACTORS_KEY = ['auth', 'totp-factors'] as const;

export function TwoFactorSection() {
  const queryClient = useQueryClient();
  const factorsQuery = useQuery({
    queryKey: TOTP_FACTORS_KEY,
    queryFn: async () => (await listTotpFactors()).filter((factor) => factor.status === 'verified'),
  });
  // A security key (its own section) also confirms sign-ins: the wording here says so.
  const keysQuery = useQuery({
    queryKey: SECURITY_KEYS_KEY,
    queryFn: listSecurityKeys,
    staleTime: 0,
  });
  const factors = factorsQuery.data ?? null;
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isStarting, setIsStarting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: TOTP_FACTORS_KEY });
  const loadProblem = factorsQuery.error ? describeAuthError(factorsQuery.error).message : null;
  const hasSecurityKeys = (keysQuery.data?.length ?? 0) > 0;

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

  const handleRemove = async (factor: Factor) => {
    setProblem(null);
    try {
      await removeFactor(factor.id);
      await refresh();
      void showToast(
        'success',
        hasSecurityKeys ? 'Authenticator app removed.' : 'Two-factor authentication is off.',
      );
    } catch (error) {
      setProblem(describeAuthError(error).message);
      throw error;
    }
  };

  return (
    <Card
      id="two-factor"
      title="Two-factor authentication"
      description="After your password, ask for a code from an authenticator app on your phone."
    >
      {problem || loadProblem ? (
        <Alert tone="error" className="mb-5 max-w-xl">
          {problem ?? loadProblem}
        </Alert>
      ) : null}
      {factors === null ? (
        loadProblem ? null : (
          <p role="status" className="text-ink-600">
            Loading...
          </p>
        )
      ) : enrolment ? (
        <TotpEnrolmentForm
          enrolment={enrolment}
          onDone={async () => {
            setEnrolment(null);
            await refresh();
            void showToast('success', 'Two-factor authentication is on.');
          }}
          onCancel={() => setEnrolment(null)}
        />
      ) : factors.length > 0 ? (
        <ul className="grid max-w-xl gap-3">
          {factors.map((factor) => (
            <FactorItem
              key={factor.id}
              icon={ShieldCheck}
              name={factor.friendly_name || 'Authenticator app'}
              detail={`On since ${dateFormat.format(new Date(factor.created_at))}`}
              removal={{
                title: 'Turn off two-factor authentication?',
                description: (
                  <p>
                    Signing in will need only your password. You can set up an app again at any
                    time.
                  </p>
                ),
                confirmLabel: 'Turn it off',
                busyLabel: 'Turning off...',
                onConfirm: () => handleRemove(factor),
              }}
            />
          ))}
        </ul>
      ) : (
        <div className="flex flex-wrap items-center gap-4">
          <p className="text-ink-700">
            {hasSecurityKeys
              ? 'No authenticator app. Your security key confirms your sign-ins.'
              : 'Two-factor authentication is off.'}
          </p>
          <Button
            onClick={() => void handleStart()}
            disabled={isStarting}
            aria-busy={isStarting || undefined}
          >
            {isStarting ? 'Preparing...' : 'Set up an authenticator app'}
          </Button>
        </div>
      )}
    </Card>
  );
}
