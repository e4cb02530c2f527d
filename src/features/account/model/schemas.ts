import { z } from 'zod';

export const profileSchema = z.object({
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
});
export type ProfileValues = z.infer<typeof profileSchema>;

export const emailSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Enter the new email address.')
    .email('Enter a valid email address, like name@company.com.'),
});
export type EmailValues = z.infer<typeof emailSchema>;
