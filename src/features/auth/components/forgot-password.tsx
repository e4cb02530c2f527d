import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import { requestPasswordReset, verifyResetCode } from '../api/password-reset';
import { authHref } from '../model/auth-href';
import { forgotPasswordSchema, type ForgotPasswordValues } from '../model/schemas';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';
import { FormError } from '@/components/ui/form-error';
import { SubmitButton } from '@/components/ui/submit-button';
import { TextLink } from './text-link';

export function ForgotPassword({ next }: { next: string | null }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<ForgotPasswordValues>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const backToSignIn = <TextLink to={authHref('sign-in', next)}>Back to sign in</TextLink>;

  const handleSubmit = form.handleSubmit(async (values) => {
    const email = values.email.trim().toLowerCase();
    try {
      await requestPasswordReset(email);
      setSentTo(email);
    } catch (error) {
      applyAuthError(form, error, { contact: 'email' });
    }
  });

  if (sentTo) {
    return (
      <AuthCard
        title="Check your email"
        description={
          <p>
            If <strong className="font-semibold text-ink-900">{sentTo}</strong> belongs to a Cervana
            account, we sent it a link and a 6-digit code to reset the password. Open the link, or
            enter the code here.
          </p>
        }
        footer={backToSignIn}
      >
        <CodeForm
          id="reset-code"
          label="Reset code"
          submitLabel="Continue"
          onVerify={(code) => verifyResetCode(sentTo, code)}
          onResend={() => requestPasswordReset(sentTo)}
          resendLabel="Email me a new code"
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset your password"
      description={
        <p>Enter the email address of your account and we will send you a way back in.</p>
      }
      footer={backToSignIn}
    >
      <form noValidate onSubmit={handleSubmit} className="grid gap-5">
        <Field id="forgot-email" label="Email address" error={errors.email?.message}>
          <Input
            {...fieldProps('forgot-email', { error: errors.email?.message })}
            {...form.register('email')}
            type="email"
            autoComplete="email"
          />
        </Field>
        <FormError errors={errors} />
        <SubmitButton isBusy={isSubmitting} label="Send reset link" busyLabel="Sending..." />
      </form>
    </AuthCard>
  );
}
