import { z } from 'zod';

/**
 * A partner's commissions and payouts (tables `commissions` and `payouts`,
 * decision 028) as the portal shows them: states in words, money from integer
 * cents, the state filter of the URL and the months a statement can cover.
 */

export const COMMISSION_STATES = ['pending', 'approved', 'paid', 'declined'] as const;
export type CommissionState = (typeof COMMISSION_STATES)[number];

export const COMMISSION_STATE_LABELS: Record<CommissionState, string> = {
  pending: 'Pending',
  approved: 'Approved',
  paid: 'Paid',
  declined: 'Declined',
};

/** What each state means, for the filter's hint and the empty ledger. */
export const COMMISSION_STATE_HINTS: Record<CommissionState, string> = {
  pending: 'Created when a customer you referred signed; our team reviews it.',
  approved: 'Confirmed by our team and waiting for the next payout.',
  paid: 'Sent to you in a payout.',
  declined: 'Not payable, with the reason.',
};

export function isCommissionState(value: unknown): value is CommissionState {
  return COMMISSION_STATES.includes(value as CommissionState);
}

/** `?state=` of the commissions page: one state, or every state when absent or unknown. */
export function stateFromSearch(search: URLSearchParams): CommissionState | null {
  const value = search.get('state');
  return isCommissionState(value) ? value : null;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** 123456 cents of USD → '$1,234.56'; every currency leads accept has two decimals. */
export function formatMoney(cents: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  return format.format(cents / 100);
}

/** 123456 → '1234.56': an amount for a spreadsheet, exact (no floating point on the way). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** 0.2 → '20%', 0.125 → '12.5%'. */
export function formatCommissionRate(rate: number): string {
  return `${Number((rate * 100).toFixed(1))}%`;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * 'Nov 27, 2026'. Commission dates are UTC days, as a commission's period is
 * the UTC month it was won in: the date shown always lies in its period.
 */
export function formatUtcDay(value: string): string {
  return dayFormat.format(new Date(value.length === 10 ? `${value}T00:00:00Z` : value));
}

/** '2026-11-27T…' or '2026-11-27' → '2026-11-27' (the UTC day). */
export function utcDay(value: string): string {
  return value.length === 10 ? value : new Date(value).toISOString().slice(0, 10);
}

/** '2026-11' (or '2026-11-01') → 'November 2026'. */
export function formatMonth(month: string): string {
  return monthFormat.format(new Date(`${month.slice(0, 7)}-01T00:00:00Z`));
}

/**
 * The months a statement can cover: each month with a commission (its period)
 * or a payout paid in it, newest first, as 'YYYY-MM'.
 */
export function statementMonths(periods: string[], paidOns: (string | null)[]): string[] {
  const months = new Set<string>();
  for (const day of [...periods, ...paidOns]) if (day) months.add(day.slice(0, 7));
  return [...months].sort().reverse();
}

/** 'YYYY-MM' → the first and the day after the last of that month ('YYYY-MM-DD'). */
export function monthBounds(month: string): { first: string; next: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(year, monthNumber, 1)).toISOString().slice(0, 10);
  return { first: `${month}-01`, next };
}

export const payoutRefSchema = z.object({
  reference: z.string().nullable(),
  paid_on: z.string().nullable(),
  status: z.string(),
});

export const commissionRowSchema = z.object({
  id: z.string(),
  company: z.string(),
  deal_value_cents: z.number(),
  currency: z.string(),
  rate: z.coerce.number(),
  amount_cents: z.number(),
  status: z.enum(COMMISSION_STATES),
  won_at: z.string(),
  period: z.string(),
  decline_reason: z.string().nullable(),
  paid_at: z.string().nullable(),
  created_at: z.string(),
  payout: payoutRefSchema.nullable(),
});
export type CommissionRow = z.infer<typeof commissionRowSchema>;

export const payoutRowSchema = z.object({
  id: z.string(),
  currency: z.string(),
  amount_cents: z.number(),
  commission_count: z.number(),
  status: z.enum(['pending', 'paid']),
  reference: z.string().nullable(),
  paid_on: z.string().nullable(),
  created_at: z.string(),
});
export type PayoutRow = z.infer<typeof payoutRowSchema>;

/** A payout's status in words: 'Being prepared' or 'Paid on Nov 27, 2026'. */
export function payoutStatusLabel(payout: Pick<PayoutRow, 'status' | 'paid_on'>): string {
  return payout.status === 'paid' && payout.paid_on
    ? `Paid on ${formatUtcDay(payout.paid_on)}`
    : 'Being prepared';
}

/** What the totals need of each commission. */
export interface CommissionFact {
  currency: string;
  status: CommissionState;
  amount_cents: number;
  won_at: string;
}

export interface CurrencyTotal {
  currency: string;
  pending: number;
  approved: number;
  paid: number;
  /** Declined commissions are not money owed: they are counted, not summed. */
  declinedCount: number;
}

/** Cents per state for each currency (never added across currencies), alphabetically. */
export function totalsByCurrency(facts: CommissionFact[]): CurrencyTotal[] {
  const totals = new Map<string, CurrencyTotal>();
  for (const fact of facts) {
    let total = totals.get(fact.currency);
    if (!total) {
      total = { currency: fact.currency, pending: 0, approved: 0, paid: 0, declinedCount: 0 };
      totals.set(fact.currency, total);
    }
    if (fact.status === 'declined') total.declinedCount += 1;
    else total[fact.status] += fact.amount_cents;
  }
  return [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * Won deals that count toward a tier: commissions not declined, won in the
 * last twelve months (as private.partner_standing counts them).
 */
export function wonDealsInLastYear(facts: Pick<CommissionFact, 'status' | 'won_at'>[], now: Date) {
  const since = new Date(now);
  since.setUTCMonth(since.getUTCMonth() - 12);
  return facts.filter(
    (fact) => fact.status !== 'declined' && new Date(fact.won_at).getTime() > since.getTime(),
  ).length;
}
