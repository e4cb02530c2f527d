import { z } from 'zod';
import { pageCursorSchema } from './partners';

/** The two views of /admin/commissions (`?tab=`). */
export type CommissionsTab = 'commissions' | 'payouts';

export function parseCommissionsTab(params: URLSearchParams): CommissionsTab {
  return params.get('tab') === 'payouts' ? 'payouts' : 'commissions';
}

export const COMMISSION_STATUSES = ['pending', 'approved', 'paid', 'declined'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

export const COMMISSION_STATUS_LABELS: Record<CommissionStatus, string> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  paid: 'Paid',
  declined: 'Declined',
};

/** The commissions filter: one status or all, one partner or all. Pending by default. */
export interface CommissionFilters {
  status: CommissionStatus | 'all';
  partnerId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseCommissionFilters(params: URLSearchParams): CommissionFilters {
  const status = params.get('status');
  const partner = params.get('partner');
  return {
    status:
      status === 'all'
        ? 'all'
        : (COMMISSION_STATUSES.find((value) => value === status) ?? 'pending'),
    partnerId: partner && UUID.test(partner) ? partner.toLowerCase() : null,
  };
}

/** Writes the filters into `params`, leaving out the defaults (a clean URL for the usual view). */
export function writeCommissionFilters(params: URLSearchParams, filters: CommissionFilters): void {
  if (filters.status === 'pending') params.delete('status');
  else params.set('status', filters.status);
  if (filters.partnerId) params.set('partner', filters.partnerId);
  else params.delete('partner');
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Integer cents of a currency as people read them: 123456, 'USD' → '$1,234.56'. */
export function formatMoney(cents: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  return format.format(cents / 100);
}

/** 0.175 → '17.5%': a stored rate (three decimals) without float noise. */
export function formatRatePrecise(rate: number): string {
  const percent = Math.round(rate * 1000) / 10;
  return `${percent.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
}

export const commissionRowSchema = z.object({
  id: z.string(),
  partner_id: z.string(),
  partner_company: z.string(),
  referral_code: z.string(),
  lead_id: z.string(),
  company: z.string(),
  deal_value_cents: z.coerce.number(),
  currency: z.string(),
  tier: z.string(),
  rate: z.coerce.number(),
  amount_cents: z.coerce.number(),
  status: z.enum(COMMISSION_STATUSES),
  won_at: z.string(),
  approved_at: z.string().nullable(),
  declined_at: z.string().nullable(),
  decline_reason: z.string().nullable(),
  declined_automatically: z.boolean(),
  payout_id: z.string().nullable(),
  paid_at: z.string().nullable(),
  version: z.number(),
  created_at: z.string(),
});
export type CommissionRow = z.infer<typeof commissionRowSchema>;

export const commissionPageSchema = z.object({
  rows: z.array(commissionRowSchema),
  next: pageCursorSchema.nullable(),
  pending: z.coerce.number(),
});
export type CommissionPage = z.infer<typeof commissionPageSchema>;

export const payableBalanceSchema = z.object({
  partner_id: z.string(),
  company: z.string(),
  referral_code: z.string(),
  email: z.string().nullable(),
  currency: z.string(),
  commission_count: z.coerce.number(),
  amount_cents: z.coerce.number(),
  oldest_approved_at: z.string(),
});
export type PayableBalance = z.infer<typeof payableBalanceSchema>;

export const PAYOUT_STATUSES = ['pending', 'paid'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const payoutRowSchema = z.object({
  id: z.string(),
  partner_id: z.string(),
  partner_company: z.string(),
  referral_code: z.string(),
  email: z.string().nullable(),
  currency: z.string(),
  amount_cents: z.coerce.number(),
  commission_count: z.coerce.number(),
  status: z.enum(PAYOUT_STATUSES),
  reference: z.string().nullable(),
  paid_on: z.string().nullable(),
  paid_at: z.string().nullable(),
  version: z.number(),
  created_at: z.string(),
});
export type PayoutRow = z.infer<typeof payoutRowSchema>;

export const payoutPageSchema = z.object({
  rows: z.array(payoutRowSchema),
  next: pageCursorSchema.nullable(),
});
export type PayoutPage = z.infer<typeof payoutPageSchema>;

/** Today as the payment date's input holds it (YYYY-MM-DD, the admin's own calendar day). */
export function todayInput(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Marking a payout paid: the bank's reference and the day the money left, not in the future. */
export function markPaidSchema(today: string = todayInput()) {
  return z.object({
    reference: z
      .string()
      .trim()
      .min(1, 'Please enter the payment’s reference, as your bank shows it.')
      .max(120, 'Please keep the reference under 121 characters.'),
    paidOn: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter the date the payment was made.')
      .refine((value) => value <= today, 'The payment date cannot be in the future.'),
  });
}
export type MarkPaidValues = z.infer<ReturnType<typeof markPaidSchema>>;

/** The database's field names → the mark-paid form's. */
export const MARK_PAID_FIELDS = { reference: 'reference', paid_on: 'paidOn' } as const;

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** '2026-11-27' (a date column) → 'Nov 27, 2026', without a time zone shifting the day. */
export function formatDate(value: string): string {
  const [year, month, date] = value.slice(0, 10).split('-').map(Number);
  return day.format(new Date(year ?? 1970, (month ?? 1) - 1, date ?? 1));
}
