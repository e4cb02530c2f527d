import { z } from 'zod';
import { newPasswordField } from '@/lib/auth/password-rules';
import { profileFields } from '@/lib/auth/profile-fields';
import { parseContact } from './contact';

export {
  MIN_PASSWORD_LENGTH,
  newPasswordSchema,
  type NewPasswordValues,
} from '@/lib/auth/password-rules';

/** The spec's wording for a sign-up or sign-in without an email or phone and a password. */
export const MISSING_CREDENTIALS =
  'You must provide either an email or phone number and a password';

const contactField = z.string().superRefine((value, context) => {
  const contact = parseContact(value);
  if (contact.kind === 'missing')
    context.addIssue({ code: 'custom', message: MISSING_CREDENTIALS });
  if (contact.kind === 'invalid-email') {
    context.addIssue({
      code: 'custom',
      message: 'Enter a valid email address, like name@company.com.',
    });
  }
  if (contact.kind === 'invalid-phone') {
    context.addIssue({
      code: 'custom',
      message: 'Enter the phone number with its country code, for example +1 415 555 0142.',
    });
  }
});

const emailField = z
  .string()
  .trim()
  .min(1, 'Enter your email address.')
  .email('Enter a valid email address, like name@company.com.');

/** Without an email or phone the spec's sentence says it all; the password gets its own only when the contact is there. */
export const signInSchema = z.object({
  contact: contactField,
  password: z.string().min(1, 'Enter your password.'),
});
export type SignInValues = z.infer<typeof signInSchema>;

export const signUpSchema = z.object({
  ...profileFields,
  contact: contactField,
  password: z.string().min(1, MISSING_CREDENTIALS).pipe(newPasswordField),
});
export type SignUpValues = z.infer<typeof signUpSchema>;

export const codeRequestSchema = z.object({ contact: contactField });
export type CodeRequestValues = z.infer<typeof codeRequestSchema>;

export const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6,10}$/, 'Enter the code: the digits from the message we sent you.'),
});
export type CodeValues = z.infer<typeof codeSchema>;

export const forgotPasswordSchema = z.object({ email: emailField });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;
