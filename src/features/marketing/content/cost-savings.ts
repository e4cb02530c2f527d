/** Section 2: what missed calls and manual touches cost, and the ROI calculator's inputs. */

export const costSavings = {
  eyebrow: 'The cost of the phone',
  heading: 'Unanswered calls are churn you do not see coming',
  lead: 'Customers who call are the ones with a problem right now. Every voicemail, hold queue and "we will call you back" lands on a CSM who should be working on renewals.',
  problems: [
    {
      title: 'Calls arrive when your team cannot take them',
      text: 'Outages, invoices and logins do not wait for office hours. A call that ends in voicemail becomes an angry email, then a ticket, then a renewal risk.',
    },
    {
      title: 'Routine questions eat strategic hours',
      text: 'Seat counts, invoice copies, password resets and status updates: most calls need an answer from a system, not a judgement from a person.',
    },
    {
      title: 'Context gets lost between people',
      text: 'When a call does need a CSM, they start from zero. Customers repeat themselves, and the one thing they wanted to feel, understood, is gone.',
    },
  ],
  calculator: {
    heading: 'What would Cervana save your team?',
    intro:
      'Adjust the figures to your team. The result updates as you type, and the link keeps your numbers, so you can share it.',
    formulaHeading: 'How we calculate it',
    assumption:
      'Assumes the resolved calls would otherwise take a CSM the same handle time. Cervana’s own subscription is not deducted; ask Sales for pricing on your volume.',
  },
} as const;

export interface RoiInputs {
  /** Inbound customer calls per month. */
  monthlyCalls: number;
  /** Average minutes a CSM spends per call, including wrap-up. */
  minutesPerCall: number;
  /** Fully loaded cost of a CSM hour, in US dollars. */
  hourlyCost: number;
  /** Share of calls Cervana resolves without a person, in percent. */
  resolvedPercent: number;
}

export interface RoiField {
  key: keyof RoiInputs;
  /** Short name in the URL. */
  param: string;
  label: string;
  /** The figure in a sentence, for its error messages: 'the calls per month'. */
  noun: string;
  hint: string;
  min: number;
  max: number;
  unit?: string;
  prefix?: string;
}

export const roiDefaults: RoiInputs = {
  monthlyCalls: 2000,
  minutesPerCall: 8,
  hourlyCost: 65,
  resolvedPercent: 60,
};

export const roiFields: RoiField[] = [
  {
    key: 'monthlyCalls',
    param: 'calls',
    label: 'Customer calls per month',
    noun: 'the calls per month',
    hint: 'Inbound calls to support and CS lines',
    min: 0,
    max: 500_000,
  },
  {
    key: 'minutesPerCall',
    param: 'minutes',
    label: 'Minutes per call',
    noun: 'the minutes per call',
    hint: 'Talk time plus wrap-up',
    min: 1,
    max: 120,
    unit: 'min',
  },
  {
    key: 'hourlyCost',
    param: 'cost',
    label: 'Loaded cost per CSM hour',
    noun: 'the cost per hour',
    hint: 'Salary, benefits and tools',
    min: 1,
    max: 1000,
    prefix: '$',
  },
  {
    key: 'resolvedPercent',
    param: 'resolved',
    label: 'Calls Cervana resolves',
    noun: 'the share of calls resolved',
    hint: 'Typical range: 40–70%',
    min: 0,
    max: 100,
    unit: '%',
  },
];
