import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { ContactFields, registerContact } from '@/components/ui/contact-fields';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Honeypot } from '@/components/ui/honeypot';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { SubmitButton } from '@/components/ui/submit-button';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { teamSizes } from '@/lib/forms/choices';
import { useHydrated } from '@/lib/use-hydrated';
import { applyRpcError } from '@/lib/forms/rpc-error';
import { submitInquiry, type InquiryReceipt } from '../api/submit-inquiry';
import {
  MESSAGE_LIMIT,
  callVolumes,
  inquiryFields,
  inquirySchema,
  toolChoices,
  type InquiryValues,
} from '../model/inquiry';

export function SalesInquiryForm({
  onSubmitted,
}: {
  onSubmitted: (receipt: InquiryReceipt, values: InquiryValues) => void;
}) {
  const form = useForm<InquiryValues>({
    resolver: zodResolver(inquirySchema),
    defaultValues: {
      fullName: '',
      email: '',
      company: '',
      jobRole: '',
      teamSize: '' as InquiryValues['teamSize'],
      monthlyCallVolume: '',
      tools: [],
      message: '',
      consent: false as unknown as true,
      fax: '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const isHydrated = useHydrated();
  const messageLength = useWatch({ control: form.control, name: 'message' })?.length ?? 0;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      onSubmitted(await submitInquiry(values), values);
    } catch (error) {
      applyRpcError(form, error, inquiryFields);
    }
  });

  const id = (name: string) => `sales-${name}`;
  const props = (name: keyof InquiryValues, hint?: string) =>
    fieldProps(id(name), { error: errors[name]?.message, hint });

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      data-hydrated={isHydrated}
      className="relative grid gap-5"
      aria-label="Talk to Sales"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <ContactFields
          idPrefix="sales"
          registrations={registerContact(form.register)}
          errors={errors}
        />
        <Field id={id('jobRole')} label="Your role (optional)" error={errors.jobRole?.message}>
          <Input
            {...props('jobRole')}
            {...form.register('jobRole')}
            autoComplete="organization-title"
            placeholder="e.g. Head of Customer Success"
            maxLength={200}
          />
        </Field>
        <Field
          id={id('teamSize')}
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
        <Field
          id={id('monthlyCallVolume')}
          label="Inbound calls a month"
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
      <fieldset
        className="grid gap-2"
        aria-describedby={errors.tools ? `${id('tools')}-error` : undefined}
      >
        <legend className="text-sm font-semibold text-ink-900">
          Tools you use today (optional)
        </legend>
        <div className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3 lg:grid-cols-5">
          {toolChoices.map((tool) => (
            <label key={tool} className="flex min-h-11 items-center gap-2 text-ink-800 sm:min-h-8">
              <input
                type="checkbox"
                value={tool}
                {...form.register('tools')}
                className="size-5 rounded border-sand-500 accent-azure-700"
              />
              {tool}
            </label>
          ))}
        </div>
        {errors.tools ? (
          <p id={`${id('tools')}-error`} className="text-sm font-medium text-danger-700">
            {errors.tools.message}
          </p>
        ) : null}
      </fieldset>
      <Field
        id={id('message')}
        label="What would you like Cervana to handle? (optional)"
        hint={`${messageLength.toLocaleString('en-US')} of ${MESSAGE_LIMIT.toLocaleString('en-US')} characters`}
        error={errors.message?.message}
      >
        <Textarea
          {...props('message', 'hint')}
          {...form.register('message')}
          rows={5}
          placeholder="Renewal check-ins, billing questions, outage updates…"
        />
      </Field>
      <div className="grid gap-1.5">
        <label className="flex items-start gap-3 text-ink-800">
          <input
            type="checkbox"
            {...fieldProps(id('consent'), { error: errors.consent?.message })}
            {...form.register('consent')}
            className="mt-1 size-5 shrink-0 rounded border-sand-500 accent-azure-700"
          />
          <span>
            Cervana may contact me about this inquiry by email or phone. We keep your details as our{' '}
            <Link to={paths.privacyPolicy} className="font-medium text-azure-700 underline">
              privacy policy
            </Link>{' '}
            says, and never sell them.
          </span>
        </label>
        {errors.consent ? (
          <p id={`${id('consent')}-error`} className="text-sm font-medium text-danger-700">
            {errors.consent.message}
          </p>
        ) : null}
      </div>
      <Honeypot id={id('fax')} registration={form.register('fax')} />
      <FormError errors={errors} />
      <SubmitButton
        isBusy={isSubmitting}
        isDisabled={!isHydrated}
        label="Send to Sales"
        busyLabel="Sending..."
      />
    </form>
  );
}
