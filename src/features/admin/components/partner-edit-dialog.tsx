import * as Dialog from '@radix-ui/react-dialog';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { showToast } from '@/components/ui/toaster';
import { partnerTiers, tierById } from '@/config/partner-program';
import { applyRpcError, isRpcError } from '@/lib/forms/rpc-error';
import { partnersKeys, updatePartner } from '../api/partners';
import {
  PARTNER_FORM_FIELDS,
  PARTNER_STATUSES,
  PARTNER_STATUS_LABELS,
  PARTNER_TIERS,
  PARTNER_TIER_LABELS,
  partnerChanges,
  partnerFormSchema,
  rateToPercentInput,
  type PartnerFormValues,
  type PartnerRow,
} from '../model/partners';

const STANDARD_RATES = partnerTiers
  .map((tier) => `${tier.name} ${Math.round(tier.rate * 100)} %`)
  .join(', ');

/**
 * A partner's tier, commission and status, saved at once with the version
 * the dialog opened with; another admin's change in between shows as a
 * sentence with "Load the latest".
 */
export function PartnerEditDialog({ partner }: { partner: PartnerRow }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <Dialog.Root open={isOpen} onOpenChange={setIsOpen}>
      <Dialog.Trigger asChild>
        <Button variant="secondary" aria-label={`Edit ${partner.company}`}>
          Edit
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[80] bg-ink-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[90] max-h-[90vh] w-[min(92vw,30rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold break-words text-ink-900">
            {partner.company}
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm break-all text-ink-600">
            {partner.email ?? 'No account'} · code {partner.referral_code}
          </Dialog.Description>
          {isOpen ? (
            <PartnerForm key={partner.version} partner={partner} onDone={() => setIsOpen(false)} />
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function PartnerForm({ partner: current, onDone }: { partner: PartnerRow; onDone: () => void }) {
  // The partner as the form opened it: the save is checked against this version.
  const [partner, setPartner] = useState(current);
  const [isStale, setIsStale] = useState(false);
  const queryClient = useQueryClient();
  const form = useForm<PartnerFormValues>({
    resolver: zodResolver(partnerFormSchema),
    defaultValues: {
      tier: partner.tier,
      percent: rateToPercentInput(partner.commission_rate),
      status: partner.status,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const status = useWatch({ control: form.control, name: 'status' });
  const isSuspending = status === 'suspended' && partner.status !== 'suspended';

  const handleSubmit = form.handleSubmit(async (values) => {
    const changes = partnerChanges(partner, values);
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    try {
      await updatePartner(partner.id, changes, partner.version);
      await queryClient.invalidateQueries({ queryKey: partnersKeys.all });
      void showToast('success', `${partner.company} saved.`);
      onDone();
    } catch (error) {
      if (isRpcError(error) && error.code === 'PT409') {
        setIsStale(true);
        return;
      }
      applyRpcError(form, error, PARTNER_FORM_FIELDS);
    }
  });

  const loadLatest = async () => {
    await queryClient.invalidateQueries({ queryKey: partnersKeys.all });
    const pages = queryClient.getQueriesData<{ pages: { rows: PartnerRow[] }[] }>({
      queryKey: [...partnersKeys.all, 'partners'],
    });
    const latest = pages
      .flatMap(([, data]) => data?.pages ?? [])
      .flatMap((page) => page.rows)
      .find((row) => row.id === partner.id);
    if (latest) {
      setPartner(latest);
      form.reset({
        tier: latest.tier,
        percent: rateToPercentInput(latest.commission_rate),
        status: latest.status,
      });
    }
    setIsStale(false);
  };

  return (
    <form noValidate onSubmit={handleSubmit} className="mt-5 grid gap-4">
      <Field
        id="partner-tier"
        label="Tier"
        hint="Choosing a tier proposes its rate. Tiers also move up by themselves as won deals reach each tier's threshold."
        error={errors.tier?.message}
      >
        <Select
          {...fieldProps('partner-tier', { error: errors.tier?.message, hint: 'tier hint' })}
          {...form.register('tier', {
            // A new tier proposes its standard rate; the admin can still type another.
            onChange: (event: { target: { value: string } }) =>
              form.setValue('percent', rateToPercentInput(tierById(event.target.value).rate), {
                shouldDirty: true,
              }),
          })}
        >
          {PARTNER_TIERS.map((tier) => (
            <option key={tier} value={tier}>
              {PARTNER_TIER_LABELS[tier]}
            </option>
          ))}
        </Select>
      </Field>
      <Field
        id="partner-percent"
        label="Commission (%)"
        hint={`0 to 50, one decimal at most. Standard: ${STANDARD_RATES}.`}
        error={errors.percent?.message}
      >
        <Input
          {...fieldProps('partner-percent', {
            error: errors.percent?.message,
            hint: 'standard rates',
          })}
          {...form.register('percent')}
          inputMode="decimal"
          autoComplete="off"
        />
      </Field>
      <Field id="partner-status" label="Status" error={errors.status?.message}>
        <Select
          {...fieldProps('partner-status', { error: errors.status?.message })}
          {...form.register('status')}
        >
          {PARTNER_STATUSES.map((value) => (
            <option key={value} value={value}>
              {PARTNER_STATUS_LABELS[value]}
            </option>
          ))}
        </Select>
      </Field>
      {isSuspending ? (
        <Alert tone="info" title="Suspending stops their referral link.">
          <p>
            Visits, sign-ups, bookings and inquiries through code {partner.referral_code} are no
            longer credited to {partner.company} until you make them active again.
          </p>
        </Alert>
      ) : null}
      {isStale ? (
        <Alert tone="error" title="Someone else changed this partner since you opened it.">
          <p>Your change was not saved. Load the latest, then make your change again.</p>
          <Button variant="secondary" className="mt-2" onClick={() => void loadLatest()}>
            Load the latest
          </Button>
        </Alert>
      ) : null}
      <FormError errors={errors} />
      <div className="flex flex-wrap justify-end gap-3">
        <Dialog.Close asChild>
          <Button variant="secondary" disabled={isSubmitting}>
            Cancel
          </Button>
        </Dialog.Close>
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
          {isSubmitting ? 'Saving…' : isSuspending ? 'Suspend and save' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
