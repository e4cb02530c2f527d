import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import { signInWithPassword } from '../api/sign-in-with-password';
import { authHref } from '../model/auth-href';
import { parseContact, type Contact } from '../model/contact';
import { PasskeySignIn } from './passkey-sign-in';
import { signInSchema, type SignInValues } from '../model/schemas';
import { FormError } from '@/components/ui/form-error';
import { SubmitButton } from '@/components/ui/submit-button';

type Reachable = Extract<Contact, { kind: 'email' | 'phone' }>;

export function SignInForm({
  next,
  onNeedsConfirmation,
}: {
  next: string | null;
  onNeedsConfirmation: (contact: Reachable) => void;
}) {
  const form = useForm<SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { contact: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    const contact = parseContact(values.contact) as Reachable;
    try {
      await signInWithPassword(contact, values.password);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'email_not_confirmed' || code === 'phone_not_confirmed') {
        onNeedsConfirmation(contact);
        return;
      }
      applyAuthError(form, error, { contact: 'contact', password: 'password' });
    }
  });

  return (
    <form noValidate onSubmit={handleSubmit} className="grid gap-5">
      <Field id="sign-in-contact" label="Email or phone number" error={errors.contact?.message}>
        <Input
          {...fieldProps('sign-in-contact', { error: errors.contact?.message })}
          {...form.register('contact')}
          type="text"
          inputMode="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
        />
      </Field>
      <Field
        id="sign-in-password"
        label="Password"
        error={errors.password?.message}
        aside={
          <Link
            to={authHref('forgot', next)}
            className="text-sm font-medium text-azure-700 hover:underline"
          >
            Forgot password?
          </Link>
        }
      >
        <PasswordInput
          {...fieldProps('sign-in-password', { error: errors.password?.message })}
          {...form.register('password')}
          autoComplete="current-password"
        />
      </Field>
      <FormError errors={errors} />
      <SubmitButton isBusy={isSubmitting} label="Sign in" busyLabel="Signing in..." />
      <p className="text-center text-sm">
        <Link to={authHref('code', next)} className="font-medium text-azure-700 hover:underline">
          Email or text me a sign-in code instead
        </Link>
      </p>
      <PasskeySignIn />
    </form>
  );
}
