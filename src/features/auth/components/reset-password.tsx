import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Field, fieldProps } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import { showToast } from '@/components/ui/toaster';
import { setNewPassword } from '../api/password-reset';
import { MIN_PASSWORD_LENGTH, newPasswordSchema, type NewPasswordValues } from '../model/schemas';
import { AuthCard } from './auth-card';
import { FormError } from '@/components/ui/form-error';
import { SubmitButton } from '@/components/ui/submit-button';

/** After a recovery link or code (PASSWORD_RECOVERY): the new password. */
export function ResetPassword() {
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirmation: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const hint = `At least ${MIN_PASSWORD_LENGTH} characters.`;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await setNewPassword(values.password);
      void showToast('success', 'Your password is changed.');
    } catch (error) {
      applyAuthError(
        form,
        error,
        { password: 'password' },
        { minPasswordLength: MIN_PASSWORD_LENGTH },
      );
    }
  });

  return (
    <AuthCard
      title="Choose a new password"
      description={<p>You are signed in. Pick the password you will use from now on.</p>}
    >
      <form noValidate onSubmit={handleSubmit} className="grid gap-5">
        <Field id="new-password" label="New password" hint={hint} error={errors.password?.message}>
          <PasswordInput
            {...fieldProps('new-password', { error: errors.password?.message, hint })}
            {...form.register('password')}
            autoComplete="new-password"
          />
        </Field>
        <Field
          id="new-password-confirmation"
          label="New password, again"
          error={errors.confirmation?.message}
        >
          <PasswordInput
            {...fieldProps('new-password-confirmation', { error: errors.confirmation?.message })}
            {...form.register('confirmation')}
            autoComplete="new-password"
          />
        </Field>
        <FormError errors={errors} />
        <SubmitButton isBusy={isSubmitting} label="Save new password" busyLabel="Saving..." />
      </form>
    </AuthCard>
  );
}
