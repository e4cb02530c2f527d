import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { SubmitButton } from '@/components/ui/submit-button';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import { confirmTotp, type TotpEnrolment } from '../api/two-factor';

const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code your app shows.'),
});
type CodeValues = z.infer<typeof codeSchema>;

/** Scan (or type) the secret into an app, then prove it with its first code. */
export function TotpEnrolmentForm({
  enrolment,
  onDone,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onDone: () => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm<CodeValues>({
    resolver: zodResolver(codeSchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await confirmTotp(enrolment.factorId, values.code.trim());
      await onDone();
    } catch (error) {
      applyAuthError(form, error, { code: 'code' });
    }
  });

  return (
    <div className="grid gap-6 md:grid-cols-[auto_1fr] md:items-start">
      <div className="justify-self-start rounded-xl border border-sand-200 bg-white p-3">
        <img
          src={enrolment.qrCode}
          alt="QR code to scan with your authenticator app"
          width={176}
          height={176}
        />
      </div>
      <div className="grid max-w-md gap-5">
        <ol className="grid list-decimal gap-2 pl-5 text-ink-700">
          <li>Open an authenticator app (1Password, Google Authenticator, Authy…).</li>
          <li>Scan the QR code, or enter this key by hand:</li>
        </ol>
        <p>
          <code
            className="block rounded-lg bg-sand-100 px-3 py-2 font-mono text-sm break-all text-ink-900"
            aria-label="Setup key"
          >
            {enrolment.secret}
          </code>
        </p>
        <form noValidate onSubmit={handleSubmit} className="grid gap-5">
          <Field id="totp-code" label="Code from the app" error={errors.code?.message}>
            <Input
              {...fieldProps('totp-code', { error: errors.code?.message })}
              {...form.register('code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className="max-w-48 text-lg tracking-[0.3em]"
            />
          </Field>
          <FormError errors={errors} />
          <div className="flex flex-wrap gap-3">
            <SubmitButton
              isBusy={isSubmitting}
              label="Turn on"
              busyLabel="Checking..."
              isFullWidth={false}
            />
            <Button variant="ghost" onClick={onCancel} disabled={isSubmitting}>
              Cancel
            </Button>
          </div>
        </form>
      </div>
    </div>
  );
}
