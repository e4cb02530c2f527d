import { z } from 'zod';
import { CONTROL_CHARACTERS, EMAIL_PATTERN, teamSizeValues } from '@/lib/forms/choices';

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

const line = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `Please keep ${label} under ${max + 1} characters.`)
    .refine(
      (value) => !CONTROL_CHARACTERS.test(value),
      `Please remove the special characters from ${label}.`,
    );

export const inquirySchema = z.object({
  fullName: line('your name', 120).pipe(z.string().min(1, 'Please enter your name.')),
  email: z
    .string()
    .trim()
    .min(1, 'Please enter your work email.')
    .max(254, 'Please enter a valid email address, like jane@company.com.')
    .regex(EMAIL_PATTERN, 'Please enter a valid email address, like jane@company.com.'),
  company: line('your company', 120).pipe(z.string().min(1, 'Please enter your company.')),
  jobRole: line('your role', 120),
  teamSize: z.enum(teamSizeValues, { message: 'Please choose your team size.' }),
  monthlyCallVolume: z.enum(callVolumes.map((volume) => volume.value) as [string, ...string[]], {
    message: 'Please choose your monthly call volume.',
  }),
  tools: z.array(z.enum(toolChoices)).max(12, 'Please choose at most 12 tools.'),
  message: z
    .string()
    .trim()
    .max(
      MESSAGE_LIMIT,
      `Please keep your message under ${(MESSAGE_LIMIT + 1).toLocaleString('en-US')} characters.`,
    ),
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
