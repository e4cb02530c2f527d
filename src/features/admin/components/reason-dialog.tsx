import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldProps } from '@/components/ui/field';
import { Textarea } from '@/components/ui/textarea';
import { isRpcError, rpcErrorMessage } from '@/lib/forms/rpc-error';

/**
 * Asks for the reason of a refusal its recipient is emailed as written (a
 * rejected partner application, a declined commission, a rejected deal
 * registration): required, and at most `limit` characters (the database's
 * limit). The database's sentence goes under the field it names, or above the
 * buttons (a 409).
 */
export function ReasonDialog({
  id,
  triggerLabel,
  triggerAriaLabel,
  title,
  description,
  label,
  submitLabel,
  busyLabel,
  recipient = 'partner',
  limit = 500,
  onSubmit,
}: {
  id: string;
  triggerLabel: string;
  triggerAriaLabel?: string;
  title: string;
  description: ReactNode;
  label: string;
  submitLabel: string;
  busyLabel: string;
  /** Who is emailed the reason, for the sentence asking for it. */
  recipient?: 'partner' | 'applicant';
  limit?: number;
  /** Resolves when done; a rejection (the error) keeps the dialog open with its sentence. */
  onSubmit: (reason: string) => Promise<void>;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const trimmed = reason.trim();
    if (!trimmed) {
      setReasonError(`Please write the reason for the ${recipient}: it is emailed to them.`);
      return;
    }
    if (trimmed.length > limit) {
      setReasonError(
        `Please keep the reason under ${(limit + 1).toLocaleString('en-US')} characters.`,
      );
      return;
    }
    setReasonError(null);
    setIsBusy(true);
    try {
      await onSubmit(trimmed);
      setIsOpen(false);
      setReason('');
    } catch (error) {
      if (isRpcError(error) && error.details === 'reason' && error.code === '22023') {
        setReasonError(error.message);
      } else {
        setFormError(rpcErrorMessage(error));
      }
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Dialog.Root
      open={isOpen}
      onOpenChange={(open) => {
        if (isBusy) return;
        setIsOpen(open);
        if (!open) {
          setReasonError(null);
          setFormError(null);
        }
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant="secondary" aria-label={triggerAriaLabel}>
          {triggerLabel}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[80] bg-ink-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[90] max-h-[90vh] w-[min(92vw,32rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold break-words text-ink-900">
            {title}
          </Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-2 text-sm text-ink-700">{description}</div>
          </Dialog.Description>
          <form
            noValidate
            onSubmit={(event) => void handleSubmit(event)}
            className="mt-4 grid gap-4"
          >
            <Field id={id} label={label} error={reasonError ?? undefined}>
              <Textarea
                {...fieldProps(id, { error: reasonError ?? undefined })}
                value={reason}
                onChange={(event) => {
                  setReason(event.target.value);
                  if (reasonError && event.target.value.trim()) setReasonError(null);
                }}
                maxLength={limit + 100}
                rows={4}
              />
            </Field>
            {formError ? <Alert tone="error">{formError}</Alert> : null}
            <div className="flex flex-wrap justify-end gap-3">
              <Dialog.Close asChild>
                <Button variant="secondary" disabled={isBusy}>
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={isBusy} aria-busy={isBusy || undefined}>
                {isBusy ? busyLabel : submitLabel}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
