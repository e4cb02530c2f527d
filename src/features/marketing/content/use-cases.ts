export interface UseCase {
  id: string;
  title: string;
  trigger: string;
  handling: string;
  result: string;
  /** Share of these calls resolved without a person, in a typical deployment. */
  resolutionNote: string;
}

export const useCasesContent = {
  eyebrow: 'Use cases',
  heading: 'The calls your CSMs should not have to take, and the ones they should',
  lead: 'Swipe through, or use the arrow keys, to see how Cervana handles each kind of call.',
};

export const useCases: UseCase[] = [
  {
    id: 'renewal-check-in',
    title: 'Renewal check-in',
    trigger: 'A customer calls 60 days before renewal with questions about the new plan.',
    handling:
      'Cervana explains the plan changes for their usage, answers pricing questions within your rules and records their priorities.',
    result: 'The CSM gets a renewal brief before their next call.',
    resolutionNote: 'Questions answered; commercial terms always go to the CSM',
  },
  {
    id: 'billing-question',
    title: 'Billing question',
    trigger: 'An invoice looks wrong: more seats, a new line item, a different total.',
    handling:
      'Cervana reads the invoice and the change log, explains each line and corrects seat counts within the limits you set.',
    result: 'Resolved on the call, with a confirmation email.',
    resolutionNote: 'Usually resolved without a person',
  },
  {
    id: 'outage-update',
    title: 'Outage update',
    trigger: 'Something is down and every affected customer calls at once.',
    handling:
      'Cervana answers every call in parallel with the live incident status, the workaround and the next update time.',
    result: 'No hold queue, and a list of affected accounts for your team.',
    resolutionNote: 'Resolved, and escalated for strategic accounts',
  },
  {
    id: 'onboarding-call',
    title: 'Onboarding call',
    trigger: 'A new customer is stuck on set-up in their first week.',
    handling:
      'Cervana walks them through the step they are on, sends the right guide and books a session when they need a person.',
    result: 'Fewer stalled onboardings, earlier first value.',
    resolutionNote: 'Most set-up questions resolved',
  },
  {
    id: 'churn-save',
    title: 'Churn save',
    trigger: 'A customer calls to cancel or to say they are looking elsewhere.',
    handling:
      'Cervana listens, asks what went wrong, and brings in the account’s CSM at once with the reasons in writing.',
    result: 'A save conversation that starts with the facts.',
    resolutionNote: 'Always handed to a CSM',
  },
  {
    id: 'access-recovery',
    title: 'Access recovery',
    trigger: 'An admin is locked out, or a user left and took the keys with them.',
    handling:
      'Cervana verifies the caller against your rules, resets access or transfers ownership, and logs every step.',
    result: 'Back in within minutes, with an audit trail.',
    resolutionNote: 'Usually resolved without a person',
  },
];
