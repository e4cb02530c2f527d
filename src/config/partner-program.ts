/**
 * The partner program's terms, in one place: the landing page's call to action,
 * /partner and the partner portal all word them from here (edit here, not in JSX).
 * Commission is a share of what each referred customer pays in the first twelve
 * months of their subscription, at the partner's tier; it does not recur after.
 * The tiers themselves come from the database (./partner-tiers.ts, generated).
 */

import { generatedPartnerTiers } from './partner-tiers';

export interface PartnerTier {
  /** The database's key ('registered', 'silver', 'gold'), as partners.tier holds it. */
  id: string;
  name: string;
  /** Share of the customer's first-year subscription, 0–1. */
  rate: number;
  /** New customers (won deals) in the last twelve months that reach this tier. */
  threshold: number;
  /** First-year value of those deals that also reaches it, when set. */
  revenueThresholdCents: number | null;
  summary: string;
}

/**
 * The tiers, from the database's `partner_tiers` (generated into
 * ./partner-tiers.ts by `npm run gen:types`): the commission rules in SQL and
 * every page read the same rates and thresholds (decision 028).
 */
export const partnerTiers: readonly [PartnerTier, ...PartnerTier[]] = generatedPartnerTiers;

/** The tier a partners.tier value names (the first tier for an unknown one). */
export function tierById(id: string): PartnerTier {
  return partnerTiers.find((tier) => tier.id === id) ?? partnerTiers[0];
}

const rates = partnerTiers.map((tier) => tier.rate);
export const lowestRate = Math.min(...rates);
export const highestRate = Math.max(...rates);

/** 0.15 → '15%'. */
export function formatRate(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** What every rate is a share of. */
export const commissionBasis = 'first-year subscription';

/** One tier's rate with its basis, for tables and cards: '15% of the first-year subscription'. */
export function describeCommission(tier: Pick<PartnerTier, 'rate'>): string {
  return `${formatRate(tier.rate)} of the ${commissionBasis}`;
}

/** What qualifies for a tier: short for a table cell, long for a card. */
export function describeThreshold(
  tier: Pick<PartnerTier, 'threshold'>,
  length: 'short' | 'long',
): string {
  if (tier.threshold === 0)
    return length === 'short' ? 'From the first' : 'From the first customer';
  return length === 'short'
    ? `${tier.threshold} or more`
    : `${tier.threshold} or more new customers a year`;
}

/** '15–25%': the range across tiers. */
const rateRange = `${Math.round(lowestRate * 100)}–${formatRate(highestRate)}`;

/** The terms in a line, for pages that summarise the program. */
export const partnerTerms = {
  /** The landing page's bullet: the most a partner earns, and on what. */
  headline: `Up to ${formatRate(highestRate)} of each referred customer’s ${commissionBasis}`,
  /** Completes 'earn …': the range across tiers, and on what. */
  earn: `${rateRange} of the ${commissionBasis} of every customer you bring`,
} as const;
