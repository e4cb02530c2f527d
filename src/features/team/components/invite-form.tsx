import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { SubmitButton } from '@/components/ui/submit-button';
import { showToast } from '@/components/ui/toaster';
import { useInvitationChanges } from '../api/invitations';
import { TeamError, teamErrorMessage } from '../api/team-error';
import {
  assignableRoles,
  inviteSchema,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  type InviteValues,
  type Role,
} from '../model/team';

const FIELDS: Record<string, keyof InviteValues> = { email: 'email', role: 'role' };

/** Email and role; the browser checks the form, the database has the last word. */
export function InviteForm({ workspaceId, viewerRole }: { workspaceId: string; viewerRole: Role }) {
  const { invite } = useInvitationChanges(workspaceId);
  const form = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '', role: 'member' },
  });
  const { errors, isSubmitting } = form.formState;
  const role = useWatch({ control: form.control, name: 'role' });
  const roleHint = `${ROLE_DESCRIPTIONS[role]}.`;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await invite.mutateAsync(values);
      form.reset({ email: '', role: values.role });
      void showToast('success', `Invitation sent to ${values.email}.`);
    } catch (error) {
      const field = error instanceof TeamError && error.code === '22023' ? error.details : null;
      const name = field ? FIELDS[field] : undefined;
      if (name) {
        form.setError(
          name,
          { type: 'server', message: teamErrorMessage(error) },
          { shouldFocus: true },
        );
      } else {
        form.setError('root.server', { type: 'server', message: teamErrorMessage(error) });
      }
    }
  });

  return (
    <form noValidate onSubmit={handleSubmit} className="grid gap-4" aria-label="Invite a teammate">
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <Field id="invite-email" label="Email address" error={errors.email?.message}>
          <Input
            {...fieldProps('invite-email', { error: errors.email?.message })}
            {...form.register('email')}
            type="email"
            autoComplete="off"
            placeholder="jane@company.com"
          />
        </Field>
        <Field id="invite-role" label="Role" hint={roleHint} error={errors.role?.message}>
          <Select
            {...fieldProps('invite-role', { error: errors.role?.message, hint: roleHint })}
            {...form.register('role')}
          >
            {assignableRoles(viewerRole).map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <FormError errors={errors} />
      <div>
        <SubmitButton
          isBusy={isSubmitting}
          label="Send invitation"
          busyLabel="Sending..."
          isFullWidth={false}
        />
      </div>
    </form>
  );
}
