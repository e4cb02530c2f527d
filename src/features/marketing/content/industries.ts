export interface IndustryExample {
  caller: string;
  request: string;
  action: string;
  outcome: 'Resolved' | 'Handed to a CSM';
}

export interface Industry {
  id: string;
  name: string;
  summary: string;
  examples: IndustryExample[];
}

export const industriesContent = {
  eyebrow: 'Industries',
  heading: 'Built for teams whose customers pick up the phone',
  lead: 'Choose your industry to see the calls Cervana handles every day.',
};

export const industries: Industry[] = [
  {
    id: 'b2b-saas',
    name: 'B2B SaaS',
    summary:
      'Seats, invoices, access and incidents for software companies with account-managed customers.',
    examples: [
      {
        caller: 'Operations lead at a logistics customer',
        request: 'Invoice shows more seats than expected',
        action:
          'Explains which seats were added and when, removes unused ones from the next invoice',
        outcome: 'Resolved',
      },
      {
        caller: 'Admin locked out before a board meeting',
        request: 'Cannot sign in after an SSO change',
        action: 'Verifies identity, resends the invite and confirms the SSO mapping',
        outcome: 'Resolved',
      },
      {
        caller: 'VP of Support at a top-20 account',
        request: 'Third outage this quarter, unhappy about renewal',
        action: 'Confirms the incident and fix, flags renewal risk, warm transfer to the CSM',
        outcome: 'Handed to a CSM',
      },
    ],
  },
  {
    id: 'fintech',
    name: 'Fintech',
    summary: 'Payment, payout and verification questions, with strict identity checks first.',
    examples: [
      {
        caller: 'Merchant finance manager',
        request: 'Payout did not arrive this morning',
        action:
          'Checks the payout batch, explains the bank holiday delay, gives the new settlement date',
        outcome: 'Resolved',
      },
      {
        caller: 'Small-business owner',
        request: 'Needs a statement for an audit',
        action: 'Verifies the caller, emails the signed statement for the requested period',
        outcome: 'Resolved',
      },
      {
        caller: 'Controller at a marketplace customer',
        request: 'Disputes a fee change in the new contract',
        action:
          'Summarises the contract terms and the dispute, books the account manager for today',
        outcome: 'Handed to a CSM',
      },
    ],
  },
  {
    id: 'healthcare',
    name: 'Healthcare technology',
    summary: 'Clinic and provider customers of health software, with no patient data in the call.',
    examples: [
      {
        caller: 'Clinic practice manager',
        request: 'Scheduling module is slow this morning',
        action:
          'Shares the live incident status and the expected fix time, subscribes the clinic to updates',
        outcome: 'Resolved',
      },
      {
        caller: 'New provider group',
        request: 'Wants to add three locations',
        action: 'Explains the onboarding steps and sends the location set-up form',
        outcome: 'Resolved',
      },
      {
        caller: 'Medical director',
        request: 'Concerned about a data export',
        action: 'Logs the concern verbatim and connects the compliance contact immediately',
        outcome: 'Handed to a CSM',
      },
    ],
  },
  {
    id: 'logistics',
    name: 'Logistics platforms',
    summary: 'Carriers and shippers who run their day on your platform and call when it stops.',
    examples: [
      {
        caller: 'Dispatcher at a carrier',
        request: 'Driver app will not sync manifests',
        action: 'Walks through the known fix for the app version and confirms the sync',
        outcome: 'Resolved',
      },
      {
        caller: 'Shipper account owner',
        request: 'Needs API keys rotated after staff change',
        action: 'Verifies the owner, rotates the keys and emails the confirmation',
        outcome: 'Resolved',
      },
      {
        caller: 'Regional director',
        request: 'Evaluating a competitor before renewal',
        action: 'Captures the gaps they mention and books the CSM and a product specialist',
        outcome: 'Handed to a CSM',
      },
    ],
  },
];
