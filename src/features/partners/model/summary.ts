import { z } from 'zod';
import { tierById, type PartnerTier } from '@/config/partner-program';

const count = z.coerce.number().int().nonnegative();
const cents = z.coerce
  .number()
  .nullable()
  .transform((value) => value ?? 0);

/** What `partner_summary(p_from, p_to)` answers (decision 028). */
export const partnerSummarySchema = z.object({
  partner: z.object({
    id: z.string(),
    company: z.string(),
    referral_code: z.string(),
    status: z.string(),
    tier: z.string(),
    commission_rate: z.coerce.number(),
    since: z.string(),
  }),
  period: z.object({
    from: z.string(),
    to: z.string(),
    clicks: count,
    leads: count,
    bookings: count,
    won: count,
  }),
  all_time: z.object({ clicks: count, leads: count, bookings: count }),
  commissions: z.array(
    z.object({
      currency: z.string(),
      pending_cents: cents,
      approved_cents: cents,
      paid_cents: cents,
      declined_count: count,
    }),
  ),
  standing: z.object({
    won_deals: count,
    revenue_cents: cents,
    tier: z.string(),
    next_tier: z
      .object({
        tier: z.string(),
        name: z.string(),
        rate: z.coerce.number(),
        min_won_deals: count,
        min_revenue_cents: z.coerce.number().nullable().optional(),
        deals_to_go: count,
      })
      .nullable(),
  }),
});
export type PartnerSummary = z.infer<typeof partnerSummarySchema>;

/** Where the partner stands on the way to the next tier, ready to show. */
export type TierProgress =
  | { kind: 'top'; tier: PartnerTier; sentence: string }
  | {
      kind: 'next';
      tier: PartnerTier;
      next: { name: string; rate: number };
      /** Won deals in the last twelve months, capped at the threshold for the bar. */
      value: number;
      max: number;
      /** 0–100, for the bar's width. */
      percent: number;
      sentence: string;
    };

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function tierProgress(standing: PartnerSummary['standing']): TierProgress {
  const tier = tierById(standing.tier);
  const next = standing.next_tier;
  if (!next) return { kind: 'top', tier, sentence: 'You are at our top tier.' };
  const max = Math.max(next.min_won_deals, 1);
  const value = Math.min(standing.won_deals, max);
  const toGo = next.deals_to_go;
  return {
    kind: 'next',
    tier,
    next: { name: next.name, rate: next.rate },
    value,
    max,
    percent: Math.round((value / max) * 100),
    sentence:
      toGo > 0
        ? `${plural(toGo, 'more won deal', 'more won deals')} to reach ${next.name}.`
        : `You have the won deals for ${next.name}: your partner manager will move you up.`,
  };
}

/** '3 of 5 won deals in the last twelve months' */
export function describeStanding(progress: Extract<TierProgress, { kind: 'next' }>): string {
  return `${progress.value} of ${plural(progress.max, 'won deal', 'won deals')} in the last twelve months`;
}
