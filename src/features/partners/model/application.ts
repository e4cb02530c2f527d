import { z } from 'zod';
import { CONTROL_CHARACTERS, EMAIL_PATTERN } from '@/lib/forms/choices';
import { partnerTypes } from './program';

const line = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `Please keep ${label} under ${max + 1} characters.`)
    .refine(
      (value) => !CONTROL_CHARACTERS.test(value),
      `Please remove the special characters from ${label}.`,
    );

export const applicationSchema = z.object({
  fullName: line('your name', 120).pipe(z.string().min(1, 'Please enter your name.')),
  email: z
    .string()
    .trim()
    .min(1, 'Please enter your work email.')
    .max(254, 'Please enter a valid email address, like jane@company.com.')
    .regex(EMAIL_PATTERN, 'Please enter a valid email address, like jane@company.com.'),
  company: line('your company', 120).pipe(z.string().min(1, 'Please enter your company.')),
  website: line('your website', 300).refine(
    (value) =>
      value === '' ||
      /^(https?:\/\/)?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d{1,5})?([/?#]\S*)?$/i.test(value),
    'Please enter your website’s address, like https://example.com.',
  ),
  partnerType: z.enum(partnerTypes.map((type) => type.value) as [string, ...string[]], {
    message: 'Please choose the kind of partner you are.',
  }),
  expectedReferrals: z
    .string()
    .trim()
    .min(1, 'Please tell us how many teams you might refer each month.')
    .regex(/^\d+$/, 'Please enter a whole number, like 3.')
    .refine(
      (value) => Number(value) <= 1000,
      'Please enter a number of referrals between 0 and 1,000.',
    ),
  message: z.string().trim().max(2000, 'Please keep your message under 2,001 characters.'),
  fax: z.string(),
});

export type ApplicationValues = z.input<typeof applicationSchema>;

export const applicationFields = {
  full_name: 'fullName',
  email: 'email',
  company: 'company',
  website: 'website',
  partner_type: 'partnerType',
  expected_referrals: 'expectedReferrals',
  message: 'message',
} as const;
