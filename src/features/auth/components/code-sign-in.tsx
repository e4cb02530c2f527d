import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import { sendSignInCode, verifyCode } from '../api/one-time-code';
import { authHref } from '../model/auth-href';
import { describeContact, parseContact, type Contact } from '../model/contact';
import { codeRequestSchema, type CodeRequestValues } from '../model/schemas';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';
import { FormError } from '@/components/ui/form-error';
import { SubmitButton } from '@/components/ui/submit-button';
import { TextLink } from './text-link';

type Reachable = Extract<Contact, { kind: 'email' | 'phone' }>;

/** Sign in without a password: a link and code by email, or a code by text. */
export function CodeSignIn({ next }: { next: string | null }) {
  const [sentTo, setSentTo] = useState<Reachable | null>(null);
  const form = useForm<CodeRequestValues>({
    resolver: zodResolver(codeRequestSchema),
    defaultValues: { contact: '' },
  });
  const { errors, isSubmitting } = form.formState;
  // The emailed link comes back to /auth, which then forwards to `next`.
  const returnTo = authHref('sign-in', next);

  const handleRequest = form.handleSubmit(async (values) => {
    const contact = parseContact(values.contact) as Reachable;
    try {
      await sendSignInCode(contact, returnTo);
      setSentTo(contact);
    } catch (error) {
      applyAuthError(form, error, { contact: 'contact' });
    }
  });

  if (sentTo) {
    const isEmail = sentTo.kind === 'email';
    return (
      <AuthCard
        title={isEmail ? 'Check your email' : 'Check your phone'}
        description={
          <p>
            {isEmail
              ? 'We emailed a sign-in link and a 6-digit code to '
              : 'We texted a 6-digit code to '}
            <strong className="font-semibold text-ink-900">{describeContact(sentTo)}</strong>.{' '}
            {isEmail ? 'Open the link on this device, or enter the code here.' : 'Enter it here.'}
          </p>
        }
        footer={
          <TextLink to={authHref('code', next)} onClick={() => setSentTo(null)}>
            Use a different email or number
          </TextLink>
        }
      >
        <CodeForm
          id="sign-in-code"
          label="Sign-in code"
          submitLabel="Sign in"
          onVerify={(code) => verifyCode(sentTo, code, 'sign-in')}
          onResend={() => sendSignInCode(sentTo, returnTo)}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Sign in with a code"
      description={
        <p>We will send a one-time code to the email address or phone number on your account.</p>
      }
      footer={
        <TextLink to={authHref('sign-in', next)}>Sign in with your password instead</TextLink>
      }
    >
      <form noValidate onSubmit={handleRequest} className="grid gap-5">
        <Field id="code-contact" label="Email or phone number" error={errors.contact?.message}>
          <Input
            {...fieldProps('code-contact', { error: errors.contact?.message })}
            {...form.register('contact')}
            type="text"
            inputMode="email"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
          />
        </Field>
        <FormError errors={errors} />
        <SubmitButton isBusy={isSubmitting} label="Send me a code" busyLabel="Sending..." />
      </form>
    </AuthCard>
  );
}
