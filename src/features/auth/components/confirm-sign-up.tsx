import { resendConfirmation, verifyCode } from '../api/one-time-code';
import { describeContact, type Contact } from '../model/contact';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';

type Reachable = Extract<Contact, { kind: 'email' | 'phone' }>;

/** After sign-up (or a sign-in before confirming): the link or code that confirms the address. */
export function ConfirmSignUp({
  contact,
  isJustSent,
  onBack,
}: {
  contact: Reachable;
  /** False when the visitor tried to sign in before confirming: nothing was sent just now. */
  isJustSent: boolean;
  onBack: () => void;
}) {
  const isEmail = contact.kind === 'email';
  const address = (
    <strong className="font-semibold text-ink-900">{describeContact(contact)}</strong>
  );
  return (
    <AuthCard
      title={isEmail ? 'Confirm your email' : 'Confirm your phone number'}
      description={
        isJustSent ? (
          <p>
            {isEmail
              ? 'We sent a confirmation link and a 6-digit code to '
              : 'We texted a 6-digit code to '}
            {address}. {isEmail ? 'Open the link, or enter the code here.' : 'Enter it here.'}
          </p>
        ) : (
          <p>
            {address} is not confirmed yet. Enter the code from the message we sent when you signed
            up, or send a new one.
          </p>
        )
      }
      footer={
        <button
          type="button"
          onClick={onBack}
          className="font-semibold text-azure-700 hover:underline"
        >
          Back to sign in
        </button>
      }
    >
      <CodeForm
        id="confirm-code"
        label="Confirmation code"
        submitLabel="Confirm and continue"
        onVerify={(code) => verifyCode(contact, code, 'sign-up')}
        onResend={() => resendConfirmation(contact)}
        resendLabel={isEmail ? 'Email me a new code' : 'Text me a new code'}
      />
    </AuthCard>
  );
}
