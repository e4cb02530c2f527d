/**
 * The partner program's terms, in one place: the landing page's call to action,
 * /partner and the partner portal all word them from here (edit here, not in JSX).
 * Commission is a share of what each referred customer pays in the first twelve
 * months of their subscription, at the partner's tier; it does not recur after.
 */

export interface PartnerTier {
  name: string;
  /** Share of the customer's first-year subscription, 0–1. */
  rate: number;
  /** New customers a year that reach this tier. */
  threshold: number;
  summary: string;
}

export const partnerTiers = [
  {
    name: 'Registered',
    rate: 0.15,
    threshold: 0,
    summary: 'Your referral link, the partner portal and a co-branded demo page.',
  },
  {
    name: 'Silver',
    rate: 0.2,
    threshold: 5,
    summary: 'Deal registration, a partner manager and joint customer webinars.',
  },
  {
    name: 'Gold',
    rate: 0.25,
    threshold: 15,
    summary: 'Co-marketing budget, early access to features and priority support.',
  },
] as const satisfies readonly PartnerTier[];

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
