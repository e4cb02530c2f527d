export interface Metric {
  value: string;
  label: string;
  source: string;
  date: string;
}

/**
 * Headline figures. Cervana has no public customer data yet, so these are
 * illustrative and say so on the page; replace them with measured figures,
 * each with its source and date.
 */
export const socialProof = {
  eyebrow: 'In numbers',
  heading: 'What a first quarter with Cervana looks like',
  disclaimer:
    'Illustrative figures for a B2B SaaS team of 12 CSMs taking about 2,000 calls a month. They show how we measure, not results we can publish yet.',
  metrics: [
    {
      value: '100%',
      label: 'of calls answered, with no hold queue',
      source: 'Illustrative pilot model',
      date: 'Q3 2026',
    },
    {
      value: '58%',
      label: 'of calls resolved without a person',
      source: 'Illustrative pilot model',
      date: 'Q3 2026',
    },
    {
      value: '155 h',
      label: 'of CSM time freed each month',
      source: 'Illustrative: 2,000 calls × 58% × 8 min',
      date: 'Q3 2026',
    },
    {
      value: '< 30 s',
      label: 'for a CSM to take over with full context',
      source: 'Illustrative pilot model',
      date: 'Q3 2026',
    },
  ] satisfies Metric[],
};
