import { z } from 'zod';
import { contactFields, longText, textLine } from '@/lib/forms/fields';
import { partnerTypes } from './program';

export const applicationSchema = z.object({
  ...contactFields,
  website: textLine('your website', 300).refine(
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
  message: longText('your message', 2000),
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
