import { z } from 'zod';
import {
  EMAIL_PATTERN,
  callVolumeValues,
  callVolumes,
  teamSizeValues,
  teamSizes,
} from '@/lib/forms/choices';
import { longText, textLine } from '@/lib/forms/fields';

/**
 * Deal registration (`register_deal`, migration 20261128000200): the browser's
 * checks mirror the function's, worded for a prospect rather than the person
 * typing (the database has the last word).
 */

export const NOTES_LIMIT = 2000;

const INVALID_EMAIL = 'Please enter a valid email address, like jane@company.com.';

export const registrationSchema = z.object({
  company: textLine('the prospect’s company', 120)
    .pipe(z.string().min(1, 'Please enter the prospect’s company.'))
    // The database matches companies by their name's Latin letters and digits
    // (private.company_key), and refuses a name with none.
    .refine(
      (value) => value === '' || /[a-z0-9]/i.test(value),
      'Please enter the company’s name with letters or digits.',
    ),
  contactName: textLine('your contact’s name', 120).pipe(
    z.string().min(1, 'Please enter your contact’s name.'),
  ),
  contactEmail: z
    .string()
    .trim()
    .min(1, 'Please enter your contact’s work email.')
    .max(254, INVALID_EMAIL)
    .regex(EMAIL_PATTERN, INVALID_EMAIL),
  teamSize: z.enum(teamSizeValues, { message: 'Please choose the size of their team.' }),
  monthlyCallVolume: z.enum(callVolumeValues, {
    message: 'Please choose their monthly call volume.',
  }),
  notes: longText('your notes', NOTES_LIMIT),
});

export type RegistrationValues = z.input<typeof registrationSchema>;
export type RegistrationOutput = z.output<typeof registrationSchema>;

export const emptyRegistration: RegistrationValues = {
  company: '',
  contactName: '',
  contactEmail: '',
  // The selects start on "Choose…": zod refuses '' with the sentences above.
  teamSize: '' as RegistrationValues['teamSize'],
  monthlyCallVolume: '' as RegistrationValues['monthlyCallVolume'],
  notes: '',
};

/** The database function's argument for each form field (where its 400s point). */
export const registrationFields = {
  company: 'company',
  contact_name: 'contactName',
  contact_email: 'contactEmail',
  team_size: 'teamSize',
  monthly_call_volume: 'monthlyCallVolume',
  notes: 'notes',
} as const;

export type RegistrationStatus = 'pending' | 'accepted' | 'rejected';

/** A registration's status in words, for its badge. */
export const REGISTRATION_STATUS_LABELS: Record<RegistrationStatus, string> = {
  pending: 'Pending review',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

/** What each status means for the partner, under the badge. */
export const REGISTRATION_STATUS_HINTS: Record<RegistrationStatus, string> = {
  pending: 'Our sales team reviews it and emails you the decision.',
  accepted: 'Now a lead in our pipeline, credited to you.',
  rejected: 'Not accepted.',
};

export function registrationStatus(value: string): RegistrationStatus {
  return value === 'accepted' || value === 'rejected' ? value : 'pending';
}

const teamSizeLabels = new Map<string, string>(teamSizes.map((size) => [size.value, size.label]));
const callVolumeLabels = new Map<string, string>(
  callVolumes.map((volume) => [volume.value, volume.label]),
);

/** '6-20' → '6–20 people'. */
export function teamSizeLabel(value: string): string {
  return teamSizeLabels.get(value) ?? value;
}

/** '500-2000' → '500–2,000 calls'. */
export function callVolumeLabel(value: string): string {
  return callVolumeLabels.get(value) ?? value;
}

/** The tier deal registration opens at (decision 028, `register_deal`). */
export const REGISTRATION_TIER = 'silver';
