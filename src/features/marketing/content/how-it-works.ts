export const howItWorks = {
  eyebrow: 'How it works',
  heading: 'From your phone number to a resolved call in four steps',
  lead: 'No new phone system and no scripts to maintain. Cervana works with the numbers, tools and playbooks your team already has.',
  steps: [
    {
      title: 'Connect your number',
      text: 'Forward your support line or port it. Cervana answers in your company’s name, in English, Spanish, French or German, from the first ring.',
      detail: 'Usually live within two business days',
    },
    {
      title: 'Teach it your playbooks',
      text: 'Upload help-centre articles and runbooks, connect billing and CRM read access, and set the rules: what it may resolve, and when a person must step in.',
      detail: 'Rules you can read and change',
    },
    {
      title: 'It answers and resolves',
      text: 'Cervana verifies the caller, looks up the account, explains invoices, resets access, shares incident status and books follow-ups, while the customer is still on the line.',
      detail: 'Every action logged on the account',
    },
    {
      title: 'It hands off with context',
      text: 'When a call needs judgement, such as a renewal at risk, a complaint or a large upgrade, Cervana brings in the right CSM with a summary, the sentiment and the transcript.',
      detail: 'Warm transfer or a callback, your choice',
    },
  ],
} as const;
