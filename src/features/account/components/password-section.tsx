import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { SubmitButton } from '@/components/ui/submit-button';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import {
  MIN_PASSWORD_LENGTH,
  newPasswordSchema,
  type NewPasswordValues,
} from '@/lib/auth/password-rules';
import { changePassword, sendReauthenticationCode } from '../api/change-password';

type Values = NewPasswordValues & { nonce?: string };

/** A new password; when the server asks, a code emailed to the user confirms it is them. */
export function PasswordSection() {
  const [needsCode, setNeedsCode] = useState(false);
  const [isChanged, setIsChanged] = useState(false);
  const form = useForm<Values>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirmation: '', nonce: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const hint = `At least ${MIN_PASSWORD_LENGTH} characters.`;

  const handleSubmit = form.handleSubmit(async (values) => {
    const nonce = form.getValues('nonce')?.trim();
    setIsChanged(false);
    try {
      await changePassword(values.password, needsCode ? nonce : undefined);
      form.reset({ password: '', confirmation: '', nonce: '' });
      setNeedsCode(false);
      // The server ends every other session when the password changes: say so, here, not in a toast.
      setIsChanged(true);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'reauthentication_needed' && !needsCode) {
        try {
          await sendReauthenticationCode();
          setNeedsCode(true);
        } catch (sendError) {
          applyAuthError(form, sendError, {});
        }
        return;
      }
      applyAuthError(
        form,
        error,
        { password: 'password', code: 'nonce' },
        { minPasswordLength: MIN_PASSWORD_LENGTH },
      );
    }
  });

  return (
    <Card id="password" title="Password" description="Choose one you do not use anywhere else.">
      <div aria-live="polite">
        {isChanged ? (
          <Alert tone="success" className="mb-5 max-w-xl">
            Your password is changed. Every other session has been signed out.
          </Alert>
        ) : null}
      </div>
      <form noValidate onSubmit={handleSubmit} className="grid max-w-xl gap-5">
        <Field
          id="change-password"
          label="New password"
          hint={hint}
          error={errors.password?.message}
        >
          <PasswordInput
            {...fieldProps('change-password', { error: errors.password?.message, hint })}
            {...form.register('password')}
            autoComplete="new-password"
          />
        </Field>
        <Field
          id="change-password-confirmation"
          label="New password, again"
          error={errors.confirmation?.message}
        >
          <PasswordInput
            {...fieldProps('change-password-confirmation', { error: errors.confirmation?.message })}
            {...form.register('confirmation')}
            autoComplete="new-password"
          />
        </Field>
        {needsCode ? (
          <>
            <Alert tone="info">
              To protect your account, we emailed you a code. Enter it to confirm the change.
            </Alert>
            <Field
              id="change-password-code"
              label="Confirmation code"
              error={errors.nonce?.message}
            >
              <Input
                {...fieldProps('change-password-code', { error: errors.nonce?.message })}
                {...form.register('nonce')}
                inputMode="numeric"
                autoComplete="one-time-code"
              />
            </Field>
          </>
        ) : null}
        <FormError errors={errors} />
        <div>
          <SubmitButton
            isBusy={isSubmitting}
            label="Change password"
            busyLabel="Saving..."
            isFullWidth={false}
          />
        </div>
      </form>
    </Card>
  );
}
