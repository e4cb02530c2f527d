export const hero = {
  eyebrow: 'Every call answered · every issue handled',
  headline: 'The AI phone system for customer success teams',
  lead: 'Cervana picks up every call to your customer success team, resolves billing, access and status questions on the spot, and hands the rest to the right CSM with the whole conversation attached.',
  primaryAction: 'Book a 15-min demo',
  secondaryAction: 'Talk to Sales',
  proofPoints: [
    'Live on your numbers in days',
    'Hands off to Zendesk, Salesforce or Slack',
    'You set what it may resolve',
  ],
  liveCall: {
    status: 'Live call',
    caller: 'Tom Becker · Northwind Logistics',
    account: 'Enterprise plan · renews in 41 days',
    elapsed: '02:14',
    transcript: [
      { speaker: 'Customer', text: 'Our invoice shows twelve more seats than last month.' },
      {
        speaker: 'Cervana',
        text: 'I see them: your new Denver team was added on the 3rd. Three of those seats have never signed in. Shall I remove them from your next invoice?',
      },
    ],
    tags: ['Billing question', 'Account verified', 'Sentiment: calm'],
    outcome: 'Resolved on the call · summary sent to the account CSM',
  },
} as const;
