import { z } from 'zod';
import { profileFields } from '@/lib/auth/profile-fields';

export const profileSchema = z.object({
  ...profileFields,
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
