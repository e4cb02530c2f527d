import { z } from 'zod';
import { teamSizeValues } from '@/lib/forms/choices';
import { contactFields, longText, textLine } from '@/lib/forms/fields';

export const callVolumes = [
  { value: 'under-500', label: 'Fewer than 500 calls' },
  { value: '500-2000', label: '500–2,000 calls' },
  { value: '2000-10000', label: '2,000–10,000 calls' },
  { value: '10000+', label: 'More than 10,000 calls' },
] as const;

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
