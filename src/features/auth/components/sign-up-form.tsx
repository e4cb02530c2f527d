import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { paths } from '@/config/paths';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import { signUp } from '../api/sign-up';
import { parseContact, type Contact } from '../model/contact';
import { MIN_PASSWORD_LENGTH, signUpSchema, type SignUpValues } from '../model/schemas';
import { FormError } from '@/components/ui/form-error';
import { SubmitButton } from '@/components/ui/submit-button';

type Reachable = Extract<Contact, { kind: 'email' | 'phone' }>;

export function SignUpForm({
  onConfirmationSent,
}: {
  onConfirmationSent: (contact: Reachable) => void;
}) {
  const form = useForm<SignUpValues>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { fullName: '', company: '', contact: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const passwordHint = `At least ${MIN_PASSWORD_LENGTH} characters. A few unrelated words make a strong one.`;

  const handleSubmit = form.handleSubmit(async (values) => {
    const contact = parseContact(values.contact) as Reachable;
    try {
      const { isConfirmed } = await signUp({
        fullName: values.fullName.trim(),
        company: values.company.trim(),
        contact,
        password: values.password,
      });
      if (!isConfirmed) onConfirmationSent(contact);
    } catch (error) {
      applyAuthError(
        form,
        error,
        { contact: 'contact', password: 'password' },
        {
          minPasswordLength: MIN_PASSWORD_LENGTH,
        },
      );
    }
  });

  return (
    <form noValidate onSubmit={handleSubmit} className="grid gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="sign-up-name" label="Full name" error={errors.fullName?.message}>
          <Input
            {...fieldProps('sign-up-name', { error: errors.fullName?.message })}
            {...form.register('fullName')}
            autoComplete="name"
          />
        </Field>
        <Field id="sign-up-company" label="Company" error={errors.company?.message}>
          <Input
            {...fieldProps('sign-up-company', { error: errors.company?.message })}
            {...form.register('company')}
            autoComplete="organization"
          />
        </Field>
      </div>
      <Field
        id="sign-up-contact"
        label="Work email or phone number"
        error={errors.contact?.message}
      >
        <Input
          {...fieldProps('sign-up-contact', { error: errors.contact?.message })}
          {...form.register('contact')}
          type="text"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
        />
      </Field>
      <Field
        id="sign-up-password"
        label="Password"
        hint={passwordHint}
        error={errors.password?.message}
      >
        <PasswordInput
          {...fieldProps('sign-up-password', {
            error: errors.password?.message,
            hint: passwordHint,
          })}
          {...form.register('password')}
          autoComplete="new-password"
        />
      </Field>
      <FormError errors={errors} />
      <SubmitButton
        isBusy={isSubmitting}
        label="Create account"
        busyLabel="Creating your account..."
      />
      <p className="text-sm text-ink-600">
        By creating an account you agree to how we handle your data, as our{' '}
        <Link to={paths.privacyPolicy} className="font-medium text-azure-700 underline">
          privacy policy
        </Link>{' '}
        explains.
      </p>
    </form>
  );
}
