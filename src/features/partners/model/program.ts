/**
 * The partner earnings estimator. The program's terms live in
 * `src/config/partner-program.ts`; the estimator's defaults are illustrative,
 * and say so on the page.
 */

import { partnerTiers } from '@/config/partner-program';

/** The tiers, from the program's one source of terms (also used by the landing page and /partner). */
export const tiers = partnerTiers;

/** The tier a partner reaches with this many new customers in a year. */
export function tierFor(customersPerYear: number) {
  return [...tiers].reverse().find((tier) => customersPerYear >= tier.threshold) ?? tiers[0];
}

export interface EstimateInput {
  referralsPerMonth: number;
  /** Share of referrals that become customers, 0–1. */
  closeRate: number;
  /** Average subscription per customer and month, in US dollars. */
  monthlyContract: number;
}

/** Commission on the first year of each new customer's subscription, at the tier the volume reaches. */
export function estimateEarnings(input: EstimateInput) {
  const customersPerYear = Math.round(input.referralsPerMonth * 12 * input.closeRate);
  const tier = tierFor(customersPerYear);
  const yearlyCommission = customersPerYear * input.monthlyContract * 12 * tier.rate;
  return { customersPerYear, tier, yearlyCommission, monthlyCommission: yearlyCommission / 12 };
}

export const estimatorDefaults: EstimateInput = {
  referralsPerMonth: 2,
  closeRate: 0.25,
  monthlyContract: 1500,
};

export const audiences = [
  {
    title: 'CX and CS consultancies',
    text: 'You redesign support and success operations; Cervana takes the calls your clients cannot staff.',
  },
  {
    title: 'CRM and helpdesk agencies',
    text: 'You implement Salesforce, HubSpot, Zendesk or Gainsight; Cervana writes every call back into them.',
  },
  {
    title: 'Resellers and telephony providers',
    text: 'You sell numbers and contact-centre seats; add an agent that answers, resolves and hands off.',
  },
] as const;

export const faq = [
  {
    question: 'When is commission paid?',
    answer:
      'Monthly, 30 days after your referred customer pays their invoice, for the first twelve months of their subscription. The portal shows every commission as pending, approved or paid.',
  },
  {
    question: 'How is a referral attributed to me?',
    answer:
      'Anyone who arrives through your link is remembered for 90 days on their device. A demo booking, sales inquiry or sign-up in that time is credited to you. You can also register a deal in the portal.',
  },
  {
    question: 'Does it cost anything to join?',
    answer: 'No. There is no fee and no minimum volume; tiers only raise your rate.',
  },
  {
    question: 'How long does the review take?',
    answer:
      'We reply to every application within five business days. Sign in with the email you applied with to follow its status in the partner portal.',
  },
  {
    question: 'Can I resell Cervana under my own contract?',
    answer:
      'Yes, resellers sign a separate agreement with their own pricing. Choose "Reseller" in the application and we will send it.',
  },
] as const;

export const partnerTypes = [
  { value: 'consultancy', label: 'Consultancy' },
  { value: 'agency', label: 'Agency or implementer' },
  { value: 'reseller', label: 'Reseller' },
  { value: 'technology', label: 'Technology partner' },
  { value: 'other', label: 'Something else' },
] as const;
