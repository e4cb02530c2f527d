import * as Dialog from '@radix-ui/react-dialog';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { applyRpcError } from '@/lib/forms/rpc-error';
import {
  MARK_PAID_FIELDS,
  formatMoney,
  markPaidSchema,
  todayInput,
  type MarkPaidValues,
  type PayoutRow,
} from '../model/commissions';

/**
 * Records that a payout's money left: the bank's reference (the partner is
 * emailed it) and the payment's date, today unless said otherwise, never in
 * the future. Its commissions become paid.
 */
export function MarkPaidDialog({
  payout,
  onMarkPaid,
}: {
  payout: PayoutRow;
  /** Resolves when saved; a rejection shows its sentence in the form. */
  onMarkPaid: (values: MarkPaidValues) => Promise<void>;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const amount = formatMoney(payout.amount_cents, payout.currency);
  return (
    <Dialog.Root open={isOpen} onOpenChange={setIsOpen}>
      <Dialog.Trigger asChild>
        <Button aria-label={`Mark paid: ${amount} to ${payout.partner_company}…`}>
          Mark paid…
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[80] bg-ink-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[90] max-h-[90vh] w-[min(92vw,30rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold break-words text-ink-900">
            Mark {amount} to {payout.partner_company} paid
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-ink-700">
            Once you have sent the money.{' '}
            {payout.commission_count === 1
              ? 'Its commission becomes'
              : `Its ${payout.commission_count} commissions become`}{' '}
            paid and {payout.partner_company} is emailed the reference. This cannot be undone.
          </Dialog.Description>
          {isOpen ? (
            <MarkPaidForm
              onSubmit={async (values) => {
                await onMarkPaid(values);
                setIsOpen(false);
              }}
            />
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function MarkPaidForm({ onSubmit }: { onSubmit: (values: MarkPaidValues) => Promise<void> }) {
  const today = useMemo(() => todayInput(), []);
  const form = useForm<MarkPaidValues>({
    resolver: zodResolver(markPaidSchema(today)),
    defaultValues: { reference: '', paidOn: today },
  });
  const { errors, isSubmitting } = form.formState;
  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ reference: values.reference.trim(), paidOn: values.paidOn });
    } catch (error) {
      applyRpcError(form, error, MARK_PAID_FIELDS);
    }
  });

  return (
    <form noValidate onSubmit={handleSubmit} className="mt-5 grid gap-4">
      <Field
        id="payout-reference"
        label="Payment reference"
        hint="As your bank shows it; the partner is emailed it."
        error={errors.reference?.message}
      >
        <Input
          {...fieldProps('payout-reference', {
            error: errors.reference?.message,
            hint: 'reference',
          })}
          {...form.register('reference')}
          autoComplete="off"
          maxLength={140}
        />
      </Field>
      <Field id="payout-paid-on" label="Payment date" error={errors.paidOn?.message}>
        <Input
          {...fieldProps('payout-paid-on', { error: errors.paidOn?.message })}
          {...form.register('paidOn')}
          type="date"
          max={today}
        />
      </Field>
      <FormError errors={errors} />
      <div className="flex flex-wrap justify-end gap-3">
        <Dialog.Close asChild>
          <Button variant="secondary" disabled={isSubmitting}>
            Cancel
          </Button>
        </Dialog.Close>
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
          {isSubmitting ? 'Saving…' : 'Mark paid and email'}
        </Button>
      </div>
    </form>
  );
}
