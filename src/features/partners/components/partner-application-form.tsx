import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
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
import { useHydrated } from '@/lib/use-hydrated';
import { applyRpcError } from '@/lib/forms/rpc-error';
import { getQueryClient } from '@/lib/query-client';
import {
  APPLICATION_QUERY_KEY,
  submitApplication,
  type ApplicationReceipt,
} from '../api/applications';
import { applicationFields, applicationSchema, type ApplicationValues } from '../model/application';
import { partnerTypes } from '../model/program';

export function PartnerApplicationForm() {
  const [receipt, setReceipt] = useState<ApplicationReceipt>();
  const form = useForm<ApplicationValues>({
    resolver: zodResolver(applicationSchema),
    defaultValues: {
      fullName: '',
      email: '',
      company: '',
      website: '',
      partnerType: '',
      expectedReferrals: '',
      message: '',
      fax: '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const isHydrated = useHydrated();

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      setReceipt(await submitApplication(values));
      // The portal shows the new status, not a cached "not applied yet".
      void getQueryClient().invalidateQueries({ queryKey: APPLICATION_QUERY_KEY });
    } catch (error) {
      applyRpcError(form, error, applicationFields);
    }
  });

  if (receipt) return <ApplicationReceived receipt={receipt} />;

  const props = (name: keyof ApplicationValues) =>
    fieldProps(`partner-${name}`, { error: errors[name]?.message });
  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      data-hydrated={isHydrated}
      className="relative grid gap-5"
      aria-label="Partner application"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <ContactFields
          idPrefix="partner"
          registrations={registerContact(form.register)}
          errors={errors}
        />
        <Field id="partner-website" label="Website (optional)" error={errors.website?.message}>
          <Input
            {...props('website')}
            {...form.register('website')}
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://"
            maxLength={400}
          />
        </Field>
        <Field
          id="partner-partnerType"
          label="What kind of partner are you?"
          error={errors.partnerType?.message}
        >
          <Select {...props('partnerType')} {...form.register('partnerType')}>
            <option value="">Choose…</option>
            {partnerTypes.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id="partner-expectedReferrals"
          label="Teams you expect to refer a month"
          error={errors.expectedReferrals?.message}
        >
          <Input
            {...props('expectedReferrals')}
            {...form.register('expectedReferrals')}
            inputMode="numeric"
            placeholder="e.g. 2"
            maxLength={5}
          />
        </Field>
      </div>
      <Field
        id="partner-message"
        label="Tell us about your clients (optional)"
        error={errors.message?.message}
      >
        <Textarea {...props('message')} {...form.register('message')} rows={4} />
      </Field>
      <Honeypot id="partner-fax" registration={form.register('fax')} />
      <FormError errors={errors} />
      <SubmitButton
        isBusy={isSubmitting}
        isDisabled={!isHydrated}
        label="Apply to the program"
        busyLabel="Sending your application..."
      />
      <p className="text-sm text-ink-600">
        We use your details to review your application, as our{' '}
        <Link to={paths.privacyPolicy} className="font-medium text-azure-700 underline">
          privacy policy
        </Link>{' '}
        explains.
      </p>
    </form>
  );
}

function ApplicationReceived({ receipt }: { receipt: ApplicationReceipt }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="application-received" className="grid gap-4">
      <MailCheck aria-hidden="true" className="size-10 text-mint-600" />
      <h3
        id="application-received"
        ref={heading}
        tabIndex={-1}
        className="text-2xl font-bold text-ink-900 outline-none"
      >
        Check your inbox
      </h3>
      <p className="text-ink-700">{receipt.message}</p>
      <p className="text-ink-700">
        We sent it to <strong>{receipt.email}</strong>. The link works for 3 days; if nothing
        arrives within a few minutes, look in your spam folder or apply again.
      </p>
      <p className="text-ink-700">
        Sign in or create an account with that email to follow your application in the{' '}
        <Link to={paths.partnerPortal} className="font-semibold text-azure-700 underline">
          partner portal
        </Link>
        .
      </p>
    </section>
  );
}
