import { z } from 'zod';

/** The server's default minimum (PASSWORD_MIN_LENGTH); it also refuses common passwords. */
export const MIN_PASSWORD_LENGTH = 8;

export const newPasswordField = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
  .refine((value) => new TextEncoder().encode(value).length <= 72, 'Use at most 72 characters.');

/** A new password typed twice. */
export const newPasswordSchema = z
  .object({ password: newPasswordField, confirmation: z.string() })
  .refine((values) => values.password === values.confirmation, {
    path: ['confirmation'],
    message: 'The two passwords are not the same.',
  });
export type NewPasswordValues = z.infer<typeof newPasswordSchema>;
