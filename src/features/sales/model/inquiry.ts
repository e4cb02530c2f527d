import { z } from 'zod';
import { callVolumes, teamSizeValues } from '@/lib/forms/choices';
import { contactFields, longText, textLine } from '@/lib/forms/fields';

// Shared with the partner portal's deal registration (src/lib/forms/choices.ts).
export { callVolumes };

export const toolChoices = [
  'Salesforce',
  'HubSpot',
  'Zendesk',
  'Intercom',
  'Gainsight',
  'ChurnZero',
  'Totango',
  'Freshdesk',
  'Aircall',
  'Other',
] as const;

export const MESSAGE_LIMIT = 2000;

export const inquirySchema = z.object({
  ...contactFields,
  jobRole: textLine('your role', 120),
  teamSize: z.enum(teamSizeValues, { message: 'Please choose your team size.' }),
  monthlyCallVolume: z.enum(callVolumes.map((volume) => volume.value) as [string, ...string[]], {
    message: 'Please choose your monthly call volume.',
  }),
  tools: z.array(z.enum(toolChoices)).max(12, 'Please choose at most 12 tools.'),
  message: longText('your message', MESSAGE_LIMIT),
  consent: z.literal(true, { message: 'Please agree to be contacted about your inquiry.' }),
  fax: z.string(),
});

export type InquiryValues = z.input<typeof inquirySchema>;

/** The database function's argument for each form field (where its errors point). */
export const inquiryFields = {
  full_name: 'fullName',
  email: 'email',
  company: 'company',
  job_role: 'jobRole',
  team_size: 'teamSize',
  monthly_call_volume: 'monthlyCallVolume',
  tools: 'tools',
  message: 'message',
  consent: 'consent',
} as const;
