import { z } from 'zod';

/** The profile a user gives at sign-up and edits in settings (120 characters, as the database allows). */
export const profileFields = {
  fullName: z
    .string()
    .trim()
    .min(1, 'Enter your full name.')
    .max(120, 'Use at most 120 characters.'),
  company: z
    .string()
    .trim()
    .min(1, 'Enter your company’s name.')
    .max(120, 'Use at most 120 characters.'),
};
