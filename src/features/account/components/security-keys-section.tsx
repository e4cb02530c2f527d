import type { Factor } from '@supabase/supabase-js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Usb } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { showToast } from '@/components/ui/toaster';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { browserHasPasskeys } from '@/lib/auth/browser-passkeys';
import { SECURITY_KEYS_KEY, addSecurityKey, listSecurityKeys } from '../api/security-keys';
import { removeFactor } from '../api/two-factor';
import { FactorItem } from './factor-item';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const NAME_MAX = 120;

/** Security keys as the second step after the password, beside (or instead of) an authenticator app. */
export function SecurityKeysSection() {
  const queryClient = useQueryClient();
  const keysQuery = useQuery({
    queryKey: SECURITY_KEYS_KEY,
    queryFn: listSecurityKeys,
    staleTime: 0,
  });
  const keys = keysQuery.data ?? null;
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [isAdding, setIsAdding] = useState(false);
  const loadProblem = keysQuery.error ? describeAuthError(keysQuery.error).message : null;

  const refresh = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: ['auth'] });
    void showToast('success', message);
  };

  const handleAdd = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = name.trim().length > NAME_MAX ? `Use at most ${NAME_MAX} characters.` : null;
    setProblem(invalid);
    if (invalid) return;
    setIsAdding(true);
    try {
      await addSecurityKey(name);
      setName('');
      await refresh('Security key added. Signing in will ask for it after your password.');
    } catch (error) {
      setProblem(describeAuthError(error).message);
    } finally {
      setIsAdding(false);
    }
  };

  const handleRemove = async (key: Factor) => {
    await removeFactor(key.id);
    await refresh('Security key removed.');
  };

  return (
    <Card
      id="security-keys"
      title="Security keys"
      description="After your password, confirm with a hardware security key (USB, NFC or Bluetooth)."
    >
      {loadProblem ? (
        <Alert tone="error" className="mb-5 max-w-xl">
          {loadProblem}
        </Alert>
      ) : null}
      {keys === null ? (
        loadProblem ? null : (
          <p role="status" className="text-ink-600">
            Loading...
          </p>
        )
      ) : (
        <div className="grid max-w-xl gap-5">
          {keys.length > 0 ? (
            <ul className="grid gap-3" aria-label="Your security keys">
              {keys.map((key) => (
                <FactorItem
                  key={key.id}
                  icon={Usb}
                  name={key.friendly_name || 'Security key'}
                  detail={`Added ${dateFormat.format(new Date(key.created_at))}`}
                  removal={{
                    title: `Remove “${key.friendly_name || 'Security key'}”?`,
                    description: (
                      <p>
                        Signing in will no longer accept it. Your other second factors still work.
                      </p>
                    ),
                    confirmLabel: 'Remove key',
                    busyLabel: 'Removing...',
                    onConfirm: () => handleRemove(key),
                  }}
                />
              ))}
            </ul>
          ) : (
            <p className="text-ink-700">No security keys yet.</p>
          )}
          {browserHasPasskeys() ? (
            <form noValidate onSubmit={(event) => void handleAdd(event)} className="grid gap-3">
              <Field
                id="new-security-key-name"
                label="Name for a new key (optional)"
                error={problem ?? undefined}
              >
                <Input
                  {...fieldProps('new-security-key-name', { error: problem ?? undefined })}
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  maxLength={NAME_MAX + 20}
                  autoComplete="off"
                />
              </Field>
              <div>
                <Button type="submit" disabled={isAdding} aria-busy={isAdding || undefined}>
                  {isAdding ? 'Waiting for your key...' : 'Add a security key'}
                </Button>
              </div>
            </form>
          ) : (
            <Alert tone="info">
              This browser cannot use security keys. Use a recent Chrome, Edge, Firefox or Safari.
            </Alert>
          )}
        </div>
      )}
    </Card>
  );
}
