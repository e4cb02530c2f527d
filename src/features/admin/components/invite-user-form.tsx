import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { SubmitButton } from '@/components/ui/submit-button';
import { showToast } from '@/components/ui/toaster';
import { applyRpcError, isRpcError } from '@/lib/forms/rpc-error';
import { inviteUser, usersKeys } from '../api/users';
import { inviteSchema, type InviteValues } from '../model/users';

/** Invites someone by email: the auth service sends the link; they set a password on arrival. */
export function InviteUserForm() {
  const queryClient = useQueryClient();
  const form = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      const user = await inviteUser(values.email);
      form.reset({ email: '' });
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
      void showToast('success', `Invitation sent to ${user.email}.`);
    } catch (error) {
      // A taken address is about the field, whatever the status says.
      if (isRpcError(error) && error.code === 'PT409') {
        form.setError('email', { type: 'server', message: error.message }, { shouldFocus: true });
        return;
      }
      applyRpcError(form, error, { email: 'email' });
    }
  });

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      aria-labelledby="invite-user-heading"
      className="grid gap-3 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5"
    >
      <h2 id="invite-user-heading" className="text-base font-semibold text-ink-900">
        Invite someone
      </h2>
      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start">
        <Field
          id="invite-email"
          label="Email address"
          error={errors.email?.message}
          hint="They get a link to set a password and sign in as a customer."
        >
          <Input
            {...fieldProps('invite-email', {
              error: errors.email?.message,
              hint: 'They get a link to set a password and sign in as a customer.',
            })}
            {...form.register('email')}
            type="email"
            autoComplete="off"
            maxLength={254}
            placeholder="jane@company.com"
          />
        </Field>
        <div className="sm:pt-7">
          <SubmitButton
            isBusy={isSubmitting}
            busyLabel="Sending…"
            label="Send invitation"
            isFullWidth={false}
          />
        </div>
      </div>
      <FormError errors={errors} />
    </form>
  );
}
