import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@supabase/supabase-js';
import { useForm } from 'react-hook-form';
import { Card } from '@/components/ui/card';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { SubmitButton } from '@/components/ui/submit-button';
import { showToast } from '@/components/ui/toaster';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import { profileOf } from '@/lib/auth/user-profile';
import { updateProfile } from '../api/update-profile';
import { profileSchema, type ProfileValues } from '../model/schemas';

export function ProfileSection({ user }: { user: User }) {
  const form = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: profileOf(user),
  });
  const { errors, isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await updateProfile({ fullName: values.fullName.trim(), company: values.company.trim() });
      form.reset(values);
      void showToast('success', 'Profile saved.');
    } catch (error) {
      applyAuthError(form, error, {});
    }
  });

  return (
    <Card id="profile" title="Profile" description="How you appear to your team and to Cervana.">
      <form noValidate onSubmit={handleSubmit} className="grid max-w-xl gap-5">
        <Field id="profile-name" label="Full name" error={errors.fullName?.message}>
          <Input
            {...fieldProps('profile-name', { error: errors.fullName?.message })}
            {...form.register('fullName')}
            autoComplete="name"
          />
        </Field>
        <Field id="profile-company" label="Company" error={errors.company?.message}>
          <Input
            {...fieldProps('profile-company', { error: errors.company?.message })}
            {...form.register('company')}
            autoComplete="organization"
          />
        </Field>
        <FormError errors={errors} />
        <div>
          <SubmitButton
            isBusy={isSubmitting}
            label="Save profile"
            busyLabel="Saving..."
            isFullWidth={false}
          />
        </div>
      </form>
    </Card>
  );
}
