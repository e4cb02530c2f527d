import { KeyRound } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { showToast } from '@/components/ui/toaster';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { browserHasPasskeys } from '@/lib/auth/browser-passkeys';
import {
  PASSKEY_NAME_MAX,
  addPasskey,
  listPasskeys,
  removePasskey,
  renamePasskey,
  type Passkey,
} from '../api/passkeys';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const PASSKEYS_KEY = ['auth', 'passkeys'] as const;

function nameProblem(name: string): string | null {
  return name.trim().length > PASSKEY_NAME_MAX
    ? `Use at most ${PASSKEY_NAME_MAX} characters.`
    : null;
}

function PasskeyRow({
  passkey,
  onChanged,
}: {
  passkey: Passkey;
  onChanged: (message: string) => Promise<void>;
}) {
  const [isRenaming, setIsRenaming] = useState(false);
  const [name, setName] = useState(passkey.friendly_name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const label = passkey.friendly_name || 'Passkey';
  const inputId = `passkey-name-${passkey.id}`;

  const handleRename = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = name.trim() ? nameProblem(name) : 'Give the passkey a name.';
    setProblem(invalid);
    if (invalid) return;
    setIsSaving(true);
    try {
      await renamePasskey(passkey.id, name);
      setIsRenaming(false);
      await onChanged('Passkey renamed.');
    } catch (error) {
      setProblem(describeAuthError(error).message);
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <li className="grid gap-3 rounded-xl border border-sand-200 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <KeyRound aria-hidden="true" className="size-5 text-azure-600" />
          <div>
            <p className="font-semibold break-all text-ink-900">{label}</p>
            <p className="text-sm text-ink-600">
              Added {dateFormat.format(new Date(passkey.created_at))}
              {passkey.last_used_at
                ? ` · last used ${dateFormat.format(new Date(passkey.last_used_at))}`
                : ' · not used yet'}
            </p>
          </div>
        </div>
        {isRenaming ? null : (
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setIsRenaming(true)}>
              Rename
            </Button>
            <ConfirmDialog
              trigger={<Button variant="secondary">Remove</Button>}
              title={`Remove “${label}”?`}
              description={
                <p>
                  You will no longer be able to sign in with it. Your password and other passkeys
                  still work.
                </p>
              }
              confirmLabel="Remove passkey"
              busyLabel="Removing..."
              onConfirm={async () => {
                await removePasskey(passkey.id);
                await onChanged('Passkey removed.');
              }}
            />
          </div>
        )}
      </div>
      {isRenaming ? (
        <form noValidate onSubmit={(event) => void handleRename(event)} className="grid gap-3">
          <Field id={inputId} label="Name" error={problem ?? undefined}>
            <Input
              {...fieldProps(inputId, { error: problem ?? undefined })}
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={PASSKEY_NAME_MAX + 20}
              autoComplete="off"
              autoFocus
            />
          </Field>
          <div className="flex gap-2">
            <Button type="submit" disabled={isSaving} aria-busy={isSaving || undefined}>
              {isSaving ? 'Saving...' : 'Save name'}
            </Button>
            <Button
              type="button"
              variant="secondary"
              disabled={isSaving}
              onClick={() => {
                setIsRenaming(false);
                setProblem(null);
                setName(passkey.friendly_name ?? '');
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </li>
  );
}

/** Passkeys: sign in with the device's lock (fingerprint, face, PIN) instead of a password. */
export function PasskeysSection() {
  const queryClient = useQueryClient();
  const supported = browserHasPasskeys();
  const passkeysQuery = useQuery({
    queryKey: PASSKEYS_KEY,
    queryFn: listPasskeys,
    staleTime: 0,
  });
  const passkeys = passkeysQuery.data ?? null;
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [isAdding, setIsAdding] = useState(false);
  const loadProblem = passkeysQuery.error ? describeAuthError(passkeysQuery.error).message : null;

  const changed = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
    void showToast('success', message);
  };

  const handleAdd = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = nameProblem(name);
    setProblem(invalid);
    if (invalid) return;
    setIsAdding(true);
    try {
      await addPasskey(name);
      setName('');
      await changed('Passkey added. You can sign in with it now.');
    } catch (error) {
      setProblem(describeAuthError(error).message);
    } finally {
      setIsAdding(false);
    }
  };

  return (
    <Card
      id="passkeys"
      title="Passkeys"
      description="Sign in with your device's fingerprint, face or screen lock instead of a password."
    >
      {loadProblem ? (
        <Alert tone="error" className="mb-5 max-w-xl">
          {loadProblem}
        </Alert>
      ) : null}
      {passkeys === null ? (
        loadProblem ? null : (
          <p role="status" className="text-ink-600">
            Loading...
          </p>
        )
      ) : (
        <div className="grid max-w-xl gap-5">
          {passkeys.length > 0 ? (
            <ul className="grid gap-3" aria-label="Your passkeys">
              {passkeys.map((passkey) => (
                <PasskeyRow key={passkey.id} passkey={passkey} onChanged={changed} />
              ))}
            </ul>
          ) : (
            <p className="text-ink-700">You have no passkeys yet.</p>
          )}
          {supported ? (
            <form noValidate onSubmit={(event) => void handleAdd(event)} className="grid gap-3">
              <Field
                id="new-passkey-name"
                label="Name for a new passkey (optional)"
                hint="Say which device it is on, for example “Work laptop”."
                error={problem ?? undefined}
              >
                <Input
                  {...fieldProps('new-passkey-name', {
                    error: problem ?? undefined,
                    hint: 'hint',
                  })}
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  maxLength={PASSKEY_NAME_MAX + 20}
                  autoComplete="off"
                />
              </Field>
              <div>
                <Button type="submit" disabled={isAdding} aria-busy={isAdding || undefined}>
                  {isAdding ? 'Waiting for your device...' : 'Add a passkey'}
                </Button>
              </div>
            </form>
          ) : (
            <Alert tone="info">
              This browser cannot create passkeys. Use a recent Chrome, Edge, Firefox or Safari.
            </Alert>
          )}
        </div>
      )}
    </Card>
  );
}
