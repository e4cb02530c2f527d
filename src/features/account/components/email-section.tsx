import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@supabase/supabase-js';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { SubmitButton } from '@/components/ui/submit-button';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import { changeEmail } from '../api/change-email';
import { emailSchema, type EmailValues } from '../model/schemas';

/** A change of address takes effect once both the old and the new address confirm it. */
export function EmailSection({ user }: { user: User }) {
  const [requested, setRequested] = useState<string | null>(null);
  const form = useForm<EmailValues>({
    resolver: zodResolver(emailSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const pending = requested ?? user.new_email ?? null;

  const handleSubmit = form.handleSubmit(async (values) => {
    const email = values.email.trim().toLowerCase();
    if (email === user.email) {
      form.setError(
        'email',
        { message: 'This is already your email address.' },
        { shouldFocus: true },
      );
      return;
    }
    try {
      await changeEmail(email);
      setRequested(email);
      form.reset({ email: '' });
    } catch (error) {
      applyAuthError(form, error, { contact: 'email' });
    }
  });

  return (
    <Card
      id="email"
      title="Email address"
      description={
        user.email ? (
          <p>
            You sign in with <strong className="font-semibold text-ink-900">{user.email}</strong>.
          </p>
        ) : (
          <p>Add an email address to sign in with it and receive account messages.</p>
        )
      }
    >
      {pending ? (
        <Alert tone="info" className="mb-5 max-w-xl" title={`Confirm ${pending}`}>
          {user.email
            ? 'We sent a confirmation link to your current and your new address. The change takes effect once you open both.'
            : 'We sent a confirmation link to the new address.'}
        </Alert>
      ) : null}
      <form noValidate onSubmit={handleSubmit} className="grid max-w-xl gap-5">
        <Field id="new-email" label="New email address" error={errors.email?.message}>
          <Input
            {...fieldProps('new-email', { error: errors.email?.message })}
            {...form.register('email')}
            type="email"
            autoComplete="email"
          />
        </Field>
        <FormError errors={errors} />
        <div>
          <SubmitButton
            isBusy={isSubmitting}
            label="Change email"
            busyLabel="Sending links..."
            isFullWidth={false}
          />
        </div>
      </form>
    </Card>
  );
}
