import { z } from 'zod';
import { CONTROL_CHARACTERS, EMAIL_PATTERN } from './choices';

/**
 * The browser's checks for the public forms, worded as the database functions
 * word theirs (the database has the last word; these answer at once).
 */

/** Trimmed single-line text of at most `max` characters, without control characters. */
export function textLine(label: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `Please keep ${label} under ${(max + 1).toLocaleString('en-US')} characters.`)
    .refine(
      (value) => !CONTROL_CHARACTERS.test(value),
      `Please remove the special characters from ${label}.`,
    );
}

/** Free text (newlines allowed) of at most `max` characters. */
export function longText(label: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `Please keep ${label} under ${(max + 1).toLocaleString('en-US')} characters.`);
}

const INVALID_EMAIL = 'Please enter a valid email address, like jane@company.com.';

/** Who is writing: every public form asks for these three. */
export const contactFields = {
  fullName: textLine('your name', 120).pipe(z.string().min(1, 'Please enter your name.')),
  email: z
    .string()
    .trim()
    .min(1, 'Please enter your work email.')
    .max(254, INVALID_EMAIL)
    .regex(EMAIL_PATTERN, INVALID_EMAIL),
  company: textLine('your company', 120).pipe(z.string().min(1, 'Please enter your company.')),
};
