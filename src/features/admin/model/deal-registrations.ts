import { z } from 'zod';
import { teamSizes } from '@/lib/forms/choices';
import { pageCursorSchema } from './partners';

export const REGISTRATION_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export const REGISTRATION_STATUS_LABELS: Record<RegistrationStatus, string> = {
  pending: 'Waiting for review',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

/** The registrations filter (`?registration_status=`): one status or all, pending by default. */
export type RegistrationFilter = RegistrationStatus | 'all';

export function parseRegistrationFilter(params: URLSearchParams): RegistrationFilter {
  const value = params.get('registration_status');
  if (value === 'all') return 'all';
  return REGISTRATION_STATUSES.find((status) => status === value) ?? 'pending';
}

export function teamSizeLabel(value: string): string {
  return teamSizes.find((size) => size.value === value)?.label ?? value;
}

// The inquiry form's choices (the database's check constraint), as the admin reads them.
const CALL_VOLUME_LABELS: Record<string, string> = {
  'under-500': 'Fewer than 500 calls',
  '500-2000': '500–2,000 calls',
  '2000-10000': '2,000–10,000 calls',
  '10000+': 'More than 10,000 calls',
};

export function callVolumeLabel(value: string): string {
  return CALL_VOLUME_LABELS[value] ?? value;
}

export const registrationRowSchema = z.object({
  id: z.string(),
  partner_id: z.string(),
  partner_company: z.string(),
  referral_code: z.string(),
  company: z.string(),
  contact_name: z.string(),
  contact_email: z.string(),
  team_size: z.string(),
  monthly_call_volume: z.string(),
  notes: z.string().nullable(),
  status: z.enum(REGISTRATION_STATUSES),
  decision_reason: z.string().nullable(),
  decided_at: z.string().nullable(),
  lead_id: z.string().nullable(),
  version: z.number(),
  created_at: z.string(),
});
export type RegistrationRow = z.infer<typeof registrationRowSchema>;

export const registrationPageSchema = z.object({
  rows: z.array(registrationRowSchema),
  next: pageCursorSchema.nullable(),
  pending: z.coerce.number(),
});
export type RegistrationPage = z.infer<typeof registrationPageSchema>;
