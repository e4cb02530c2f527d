import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { ContactFields, registerContact } from '@/components/ui/contact-fields';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Honeypot } from '@/components/ui/honeypot';
import { Select } from '@/components/ui/select';
import { SubmitButton } from '@/components/ui/submit-button';
import { Textarea } from '@/components/ui/textarea';
import { teamSizes } from '@/lib/forms/choices';
import { useHydrated } from '@/lib/use-hydrated';
import { applyRpcError, isRpcError } from '@/lib/forms/rpc-error';
import { bookDemo, type BookingReceipt } from '../api/scheduler';
import {
  bookingFields,
  bookingSchema,
  type BookingPrefill,
  type BookingValues,
} from '../model/booking';

export function BookingForm({
  startsAt,
  slotLabel,
  timeZone,
  prefill,
  onBooked,
  onSlotTaken,
}: {
  startsAt: string;
  slotLabel: string;
  timeZone: string;
  prefill?: BookingPrefill;
  onBooked: (receipt: BookingReceipt) => void;
  /** Someone was quicker: the visitor's answers come back so nothing they typed is lost. */
  onSlotTaken: (message: string, values: BookingValues) => void;
}) {
  const form = useForm<BookingValues>({
    resolver: zodResolver(bookingSchema),
    defaultValues: {
      fullName: prefill?.fullName ?? '',
      email: prefill?.email ?? '',
      company: prefill?.company ?? '',
      teamSize: (prefill?.teamSize ?? '') as BookingValues['teamSize'],
      notes: '',
      fax: '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const isHydrated = useHydrated();

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      onBooked(await bookDemo({ ...values, startsAt, timeZone }));
    } catch (error) {
      if (isRpcError(error) && error.code === 'PT409') {
        onSlotTaken(error.message, values);
        return;
      }
      applyRpcError(form, error, bookingFields);
    }
  });

  const props = (name: keyof BookingValues) =>
    fieldProps(`booking-${name}`, { error: errors[name]?.message });

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      data-hydrated={isHydrated}
      className="relative grid gap-5"
      aria-label="Your details"
    >
      <p className="rounded-lg bg-azure-50 px-4 py-3 font-semibold text-ink-900">{slotLabel}</p>
      <div className="grid gap-5 sm:grid-cols-2">
        <ContactFields
          idPrefix="booking"
          registrations={registerContact(form.register)}
          errors={errors}
        />
        <Field
          id="booking-teamSize"
          label="Customer success team size"
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
      </div>
      <Field
        id="booking-notes"
        label="Anything we should prepare? (optional)"
        error={errors.notes?.message}
      >
        <Textarea
          {...props('notes')}
          {...form.register('notes')}
          rows={3}
          placeholder="The calls you get most, the tools you use, who else will join…"
        />
      </Field>
      <Honeypot id="booking-fax" registration={form.register('fax')} />
      <FormError errors={errors} />
      <SubmitButton
        isBusy={isSubmitting}
        isDisabled={!isHydrated}
        label="Book this demo"
        busyLabel="Booking..."
      />
    </form>
  );
}
