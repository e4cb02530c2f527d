import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { SubmitButton } from '@/components/ui/submit-button';
import { Textarea } from '@/components/ui/textarea';
import { callVolumes, teamSizes } from '@/lib/forms/choices';
import { applyRpcError, isRpcError } from '@/lib/forms/rpc-error';
import { registerDeal, registrationsKey, type RegistrationRow } from '../api/deal-registrations';
import {
  NOTES_LIMIT,
  REGISTRATION_STATUS_HINTS,
  emptyRegistration,
  registrationFields,
  registrationSchema,
  type RegistrationOutput,
  type RegistrationValues,
} from '../model/registration';

/**
 * Registers a prospect through `register_deal`. A refused value goes under its
 * field; a refusal of the whole registration (already a lead, registered by
 * someone, too many at once, below Silver) shows the database's sentence above
 * the button, and every answer stays for a correction.
 */
export function DealRegistrationForm({ onTierRefused }: { onTierRefused: () => void }) {
  const queryClient = useQueryClient();
  const [registered, setRegistered] = useState<RegistrationRow | null>(null);
  const form = useForm<RegistrationValues, unknown, RegistrationOutput>({
    resolver: zodResolver(registrationSchema),
    defaultValues: emptyRegistration,
  });
  const { errors, isSubmitting } = form.formState;
  const notesLength = useWatch({ control: form.control, name: 'notes' })?.length ?? 0;
  const notesHint = `Where the conversation stands, who decides, and when. ${notesLength.toLocaleString('en-US')} of ${NOTES_LIMIT.toLocaleString('en-US')} characters.`;

  const handleSubmit = form.handleSubmit(async (values) => {
    setRegistered(null);
    try {
      const registration = await registerDeal(values);
      form.reset(emptyRegistration);
      setRegistered(registration);
      void queryClient.invalidateQueries({ queryKey: registrationsKey });
    } catch (error) {
      // Below Silver: a sentence of the database's own (the tier may have been
      // lowered since the page loaded), and the page shows why.
      if (isRpcError(error) && error.code === '42501') {
        form.setError('root.server', { type: 'server', message: error.message });
        onTierRefused();
        return;
      }
      applyRpcError(form, error, registrationFields);
    }
  });

  const props = (name: keyof RegistrationValues, hint?: string) =>
    fieldProps(`registration-${name}`, { error: errors[name]?.message, hint });
  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(event)}
      className="grid gap-5"
      aria-labelledby="register-heading"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          id="registration-company"
          label="Prospect’s company"
          error={errors.company?.message}
          className="sm:col-span-2"
        >
          <Input
            {...props('company')}
            {...form.register('company')}
            autoComplete="off"
            maxLength={120}
          />
        </Field>
        <Field
          id="registration-contactName"
          label="Contact’s name"
          error={errors.contactName?.message}
        >
          <Input
            {...props('contactName')}
            {...form.register('contactName')}
            autoComplete="off"
            maxLength={120}
          />
        </Field>
        <Field
          id="registration-contactEmail"
          label="Contact’s work email"
          error={errors.contactEmail?.message}
        >
          <Input
            {...props('contactEmail')}
            {...form.register('contactEmail')}
            type="email"
            inputMode="email"
            autoComplete="off"
            maxLength={254}
          />
        </Field>
        <Field
          id="registration-teamSize"
          label="Their team’s size"
          error={errors.teamSize?.message}
        >
          <Select {...props('teamSize')} {...form.register('teamSize')}>
            <option value="">Choose…</option>
            {teamSizes.map((size) => (
              <option key={size.value} value={size.value}>
                {size.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id="registration-monthlyCallVolume"
          label="Their calls a month"
          error={errors.monthlyCallVolume?.message}
        >
          <Select {...props('monthlyCallVolume')} {...form.register('monthlyCallVolume')}>
            <option value="">Choose…</option>
            {callVolumes.map((volume) => (
              <option key={volume.value} value={volume.value}>
                {volume.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field
        id="registration-notes"
        label="Notes for our sales team (optional)"
        error={errors.notes?.message}
        hint={notesHint}
      >
        <Textarea {...props('notes', notesHint)} {...form.register('notes')} rows={4} />
      </Field>
      <FormError errors={errors} />
      {registered ? <Registered registration={registered} /> : null}
      <div>
        <SubmitButton
          isBusy={isSubmitting}
          isFullWidth={false}
          label="Register this deal"
          busyLabel="Registering…"
        />
      </div>
    </form>
  );
}

function Registered({ registration }: { registration: RegistrationRow }) {
  const message = useRef<HTMLDivElement>(null);
  // The form is empty again: say where the registration went.
  useEffect(() => message.current?.focus(), [registration.id]);
  return (
    <div ref={message} tabIndex={-1} className="outline-none">
      <Alert tone="success" title={`${registration.company} is registered`}>
        {REGISTRATION_STATUS_HINTS.pending} It is listed below as pending review.
      </Alert>
    </div>
  );
}
