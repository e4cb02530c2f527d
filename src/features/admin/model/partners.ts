import { z } from 'zod';

/** The views of /admin/partners (`?tab=`), applications by default. */
export const PARTNERS_TABS = ['applications', 'partners', 'registrations', 'assets'] as const;
export type PartnersTab = (typeof PARTNERS_TABS)[number];

export function parsePartnersTab(params: URLSearchParams): PartnersTab {
  const value = params.get('tab');
  return PARTNERS_TABS.find((tab) => tab === value) ?? 'applications';
}

export const APPLICATION_STATUSES = ['pending', 'unconfirmed', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const APPLICATION_STATUS_LABELS: Record<ApplicationStatus, string> = {
  pending: 'Waiting for review',
  unconfirmed: 'Email not confirmed',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** The applications filter: one status, or every application (`all`). Pending by default. */
export type ApplicationFilter = ApplicationStatus | 'all';

export function parseApplicationFilter(params: URLSearchParams): ApplicationFilter {
  const value = params.get('status');
  if (value === 'all') return 'all';
  return APPLICATION_STATUSES.find((status) => status === value) ?? 'pending';
}

export const PARTNER_TYPE_LABELS: Record<string, string> = {
  consultancy: 'Consultancy',
  agency: 'Agency or implementer',
  reseller: 'Reseller',
  technology: 'Technology partner',
  other: 'Something else',
};

/** A keyset page's edge: the created_at and id of the last row shown. */
export const pageCursorSchema = z.object({ created_at: z.string(), id: z.string() });
export type PageCursor = z.infer<typeof pageCursorSchema>;

export const applicationRowSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  company: z.string(),
  website: z.string().nullable(),
  partner_type: z.string(),
  expected_referrals: z.number(),
  message: z.string().nullable(),
  status: z.enum(APPLICATION_STATUSES),
  decision_reason: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  reviewer_email: z.string().nullable(),
  confirmed_at: z.string().nullable(),
  created_at: z.string(),
  has_account: z.boolean(),
  partner_id: z.string().nullable(),
  referral_code: z.string().nullable(),
});
export type ApplicationRow = z.infer<typeof applicationRowSchema>;

export const applicationPageSchema = z.object({
  rows: z.array(applicationRowSchema),
  next: pageCursorSchema.nullable(),
  pending: z.number(),
});
export type ApplicationPage = z.infer<typeof applicationPageSchema>;

export const PARTNER_TIERS = ['registered', 'silver', 'gold'] as const;
export type PartnerTierName = (typeof PARTNER_TIERS)[number];
export const PARTNER_TIER_LABELS: Record<PartnerTierName, string> = {
  registered: 'Registered',
  silver: 'Silver',
  gold: 'Gold',
};

export const PARTNER_STATUSES = ['active', 'suspended'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];
export const PARTNER_STATUS_LABELS: Record<PartnerStatus, string> = {
  active: 'Active',
  suspended: 'Suspended',
};

export const partnerRowSchema = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  email: z.string().nullable(),
  company: z.string(),
  referral_code: z.string(),
  tier: z.enum(PARTNER_TIERS),
  commission_rate: z.coerce.number(),
  status: z.enum(PARTNER_STATUSES),
  version: z.number(),
  created_at: z.string(),
  clicks: z.number(),
  leads: z.number(),
  sign_ups: z.number(),
});
export type PartnerRow = z.infer<typeof partnerRowSchema>;

export const partnerPageSchema = z.object({
  rows: z.array(partnerRowSchema),
  next: pageCursorSchema.nullable(),
});
export type PartnerPage = z.infer<typeof partnerPageSchema>;

export interface PartnerFilters {
  search: string;
  status: PartnerStatus | null;
}

export function parsePartnerFilters(params: URLSearchParams): PartnerFilters {
  const status = params.get('partner_status');
  return {
    search: (params.get('q') ?? '').trim().slice(0, 100),
    status: PARTNER_STATUSES.find((value) => value === status) ?? null,
  };
}

/** 0.175 → '17.5 %': a rate as people read it (one decimal at most). */
export function formatCommission(rate: number): string {
  const percent = Math.round(rate * 1000) / 10;
  return `${percent.toLocaleString('en-US', { maximumFractionDigits: 1 })} %`;
}

/** 0.175 → '17.5', the form's value. */
export function rateToPercentInput(rate: number): string {
  return String(Math.round(rate * 1000) / 10);
}

export const partnerFormSchema = z.object({
  tier: z.enum(PARTNER_TIERS),
  percent: z
    .string()
    .trim()
    .min(1, 'Please enter the commission as a percentage from 0 to 50.')
    .regex(
      /^\d{1,2}(?:[.,]\d)?$/,
      'Please enter a percentage like 15 or 17.5 (one decimal at most).',
    )
    .refine(
      (value) => Number(value.replace(',', '.')) <= 50,
      'Please enter a commission from 0 % to 50 %.',
    ),
  status: z.enum(PARTNER_STATUSES),
});
export type PartnerFormValues = z.infer<typeof partnerFormSchema>;

/** '17.5' → 0.175, exactly (no binary drift: the database refuses more than 3 decimals). */
export function percentToRate(percent: string): number {
  const [whole = '0', tenth = '0'] = percent.trim().replace(',', '.').split('.');
  return Number(`${(Number(whole) * 10 + Number(tenth)) / 1000}`);
}

export interface PartnerChanges {
  tier?: PartnerTierName;
  commission_rate?: number;
  status?: PartnerStatus;
}

/** What the form changes, and only that. */
export function partnerChanges(partner: PartnerRow, values: PartnerFormValues): PartnerChanges {
  const changes: PartnerChanges = {};
  if (values.tier !== partner.tier) changes.tier = values.tier;
  const rate = percentToRate(values.percent);
  if (Math.abs(rate - partner.commission_rate) > 1e-9) changes.commission_rate = rate;
  if (values.status !== partner.status) changes.status = values.status;
  return changes;
}

/** The database's field names → the form's. */
export const PARTNER_FORM_FIELDS = {
  tier: 'tier',
  commission_rate: 'percent',
  status: 'status',
} as const;

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

export function formatDay(iso: string): string {
  return day.format(new Date(iso));
}
