import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { SubmitButton } from '@/components/ui/submit-button';
import { showToast } from '@/components/ui/toaster';
import { applyRpcError, isRpcError } from '@/lib/forms/rpc-error';
import { commissionsKeys } from '../api/commissions';
import { updateLead, type Lead } from '../api/leads-detail';
import { adminsQuery } from '../api/users';
import { leadsKeys } from '../api/leads-keys';
import { CURRENCIES, LEAD_STATUSES, LEAD_STATUS_LABELS } from '../model/leads';
import {
  LEAD_FORM_FIELDS,
  leadChanges,
  leadFormSchema,
  toLeadFormValues,
  type LeadFormValues,
} from '../model/leads-form';

/**
 * The lead's status, owner and deal value, saved at once with the version
 * the page loaded. Owners offered: nobody, every admin (admin_list_admins;
 * the admin signed in until it loads) and the current owner.
 */
export function LeadForm({
  lead: current,
  me,
  onReload,
  onSaved,
}: {
  lead: Lead;
  me: { id: string; name: string };
  /** Loads the lead again and starts the form from it. */
  onReload: () => Promise<unknown>;
  onSaved: () => void;
}) {
  // The lead as the form opened it: a background refetch must not move the
  // version under the admin's edits (their save is checked against this one).
  const [lead] = useState(current);
  const queryClient = useQueryClient();
  const [isStale, setIsStale] = useState(false);
  const form = useForm<LeadFormValues>({
    resolver: zodResolver(leadFormSchema),
    defaultValues: toLeadFormValues(lead),
  });
  const { errors, isSubmitting } = form.formState;
  const status = useWatch({ control: form.control, name: 'status' });

  const admins = useQuery(adminsQuery());
  const owners = [
    { id: me.id, name: `${me.name} (me)` },
    ...(admins.data ?? [])
      .filter((admin) => admin.id !== me.id)
      .map((admin) => ({ id: admin.id, name: admin.full_name ?? admin.email ?? 'An admin' })),
  ];
  if (lead.owner_id && !owners.some((owner) => owner.id === lead.owner_id)) {
    owners.push({ id: lead.owner_id, name: lead.owner?.full_name ?? 'The current owner' });
  }

  const handleSubmit = form.handleSubmit(async (values) => {
    const changes = leadChanges(lead, values);
    if (Object.keys(changes).length === 0) {
      void showToast('message', 'Nothing had changed.');
      return;
    }
    try {
      await updateLead(lead.id, changes, lead.version);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: leadsKeys.all }),
        // A partner's lead won (or moved out of won) writes or declines its commission.
        queryClient.invalidateQueries({ queryKey: commissionsKeys.all }),
      ]);
      void showToast('success', `${lead.company} saved.`);
      onSaved();
    } catch (error) {
      // Only a stale version means someone else changed it; the commission
      // rules' 409s (a commission approved or paid holds the lead at won) are
      // sentences shown above the button as they are.
      if (isRpcError(error) && error.code === 'PT409' && error.details === 'version') {
        setIsStale(true);
        return;
      }
      applyRpcError(form, error, LEAD_FORM_FIELDS);
    }
  });

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      aria-labelledby="lead-pipeline-heading"
      className="grid gap-5 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="lead-pipeline-heading" className="text-lg font-semibold text-ink-900">
        Pipeline
      </h2>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="lead-status" label="Status" error={errors.status?.message}>
          <Select
            {...fieldProps('lead-status', { error: errors.status?.message })}
            {...form.register('status')}
          >
            {LEAD_STATUSES.map((value) => (
              <option key={value} value={value}>
                {LEAD_STATUS_LABELS[value]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="lead-owner-id" label="Owner" error={errors.ownerId?.message}>
          <Select
            {...fieldProps('lead-owner-id', { error: errors.ownerId?.message })}
            {...form.register('ownerId')}
          >
            <option value="">Unassigned</option>
            {owners.map((owner) => (
              <option key={owner.id} value={owner.id}>
                {owner.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id="lead-amount"
          label={status === 'won' ? 'Deal value (required when won)' : 'Deal value'}
          error={errors.amount?.message}
        >
          <Input
            {...fieldProps('lead-amount', { error: errors.amount?.message })}
            {...form.register('amount')}
            inputMode="decimal"
            autoComplete="off"
            placeholder="12,500.00"
          />
        </Field>
        <Field id="lead-currency" label="Currency" error={errors.currency?.message}>
          <Select
            {...fieldProps('lead-currency', { error: errors.currency?.message })}
            {...form.register('currency')}
          >
            {CURRENCIES.map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      {status === 'won' && lead.status !== 'won' && lead.partner ? (
        <Alert tone="info">
          Marking this lead won creates a pending commission for {lead.partner.company}, at their
          commission rate of the deal value, for you to approve on the commissions page.
        </Alert>
      ) : null}
      {isStale ? (
        <Alert tone="error" title="Someone else changed this lead since you opened it.">
          <p>Your change was not saved. Load the latest, then make your change again.</p>
          <Button
            variant="secondary"
            className="mt-2"
            onClick={() => {
              setIsStale(false);
              void onReload();
            }}
          >
            Load the latest
          </Button>
        </Alert>
      ) : null}
      <FormError errors={errors} />
      <div>
        <SubmitButton
          isBusy={isSubmitting}
          busyLabel="Saving…"
          label="Save changes"
          isFullWidth={false}
        />
      </div>
    </form>
  );
}
