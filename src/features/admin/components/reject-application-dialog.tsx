import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldProps } from '@/components/ui/field';
import { Textarea } from '@/components/ui/textarea';
import { isRpcError, rpcErrorMessage } from '@/lib/forms/rpc-error';

const REASON_LIMIT = 1000;

/**
 * Asks for the reason before rejecting: it is required, and emailed to the
 * applicant as written. The database's sentence goes under the field it names.
 */
export function RejectApplicationDialog({
  company,
  onReject,
}: {
  company: string;
  /** Resolves when rejected; a rejection (the error) keeps the dialog open. */
  onReject: (reason: string) => Promise<void>;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const id = 'reject-reason';

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const trimmed = reason.trim();
    if (!trimmed) {
      setReasonError('Please write the reason for the applicant: it is emailed to them.');
      return;
    }
    if (trimmed.length > REASON_LIMIT) {
      setReasonError(
        `Please keep the reason under ${(REASON_LIMIT + 1).toLocaleString('en-US')} characters.`,
      );
      return;
    }
    setReasonError(null);
    setIsBusy(true);
    try {
      await onReject(trimmed);
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
        <Button variant="secondary">Reject…</Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[80] bg-ink-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[90] max-h-[90vh] w-[min(92vw,32rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-ink-900">
            Reject {company}’s application?
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-ink-700">
            The applicant is emailed your reason as you write it here. This cannot be undone.
          </Dialog.Description>
          <form
            noValidate
            onSubmit={(event) => void handleSubmit(event)}
            className="mt-4 grid gap-4"
          >
            <Field id={id} label="Reason for the applicant" error={reasonError ?? undefined}>
              <Textarea
                {...fieldProps(id, { error: reasonError ?? undefined })}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                maxLength={REASON_LIMIT + 200}
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
                {isBusy ? 'Rejecting…' : 'Reject and email'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
