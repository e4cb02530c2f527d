import { z } from 'zod';
import { CONTROL_CHARACTERS, EMAIL_PATTERN, teamSizeValues } from '@/lib/forms/choices';

const line = (label: string, missing: string) =>
  z
    .string()
    .trim()
    .min(1, missing)
    .max(120, `Please keep ${label} under 121 characters.`)
    .refine(
      (value) => !CONTROL_CHARACTERS.test(value),
      `Please remove the special characters from ${label}.`,
    );

export const bookingSchema = z.object({
  fullName: line('your name', 'Please enter your name.'),
  email: z
    .string()
    .trim()
    .min(1, 'Please enter your work email.')
    .max(254, 'Please enter a valid email address, like jane@company.com.')
    .regex(EMAIL_PATTERN, 'Please enter a valid email address, like jane@company.com.'),
  company: line('your company', 'Please enter your company.'),
  teamSize: z.enum(teamSizeValues, { message: 'Please choose your team size.' }),
  notes: z.string().trim().max(2000, 'Please keep your notes under 2,001 characters.'),
  fax: z.string(),
});

export type BookingValues = z.input<typeof bookingSchema>;

export const bookingFields = {
  full_name: 'fullName',
  email: 'email',
  company: 'company',
  team_size: 'teamSize',
  notes: 'notes',
} as const;

/** What another page (talk to sales) may hand over to start the form filled in. */
export interface BookingPrefill {
  fullName?: string;
  email?: string;
  company?: string;
  teamSize?: string;
}
