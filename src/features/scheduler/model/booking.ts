import { z } from 'zod';
import { teamSizeValues } from '@/lib/forms/choices';
import { contactFields, longText } from '@/lib/forms/fields';

export const bookingSchema = z.object({
  ...contactFields,
  teamSize: z.enum(teamSizeValues, { message: 'Please choose your team size.' }),
  notes: longText('your notes', 2000),
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
