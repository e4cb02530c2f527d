import { z } from 'zod';
import { CURRENCIES, LEAD_STATUSES, centsToAmount, parseAmountToCents } from './leads';

/**
 * The lead form's values: the status, the owner ('' for nobody), the deal's
 * value as typed (a decimal amount) and its currency. Mirrors update_lead's
 * rules; the database has the last word.
 */
export const leadFormSchema = z
  .object({
    status: z.enum(LEAD_STATUSES),
    ownerId: z.string(),
    amount: z.string().max(20),
    currency: z.enum(CURRENCIES),
  })
  .superRefine((values, context) => {
    const amount = values.amount.trim();
    if (amount === '') {
      if (values.status === 'won') {
        context.addIssue({
          code: 'custom',
          path: ['amount'],
          message: 'Please enter the deal’s value to mark the lead won.',
        });
      }
      return;
    }
    const cents = parseAmountToCents(amount);
    if (cents === null || cents < 1 || cents > 100_000_000_000) {
      context.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'Please enter an amount above zero, like 12500 or 12,500.50.',
      });
    }
  });
export type LeadFormValues = z.infer<typeof leadFormSchema>;

export interface EditableLead {
  status: LeadFormValues['status'];
  owner_id: string | null;
  deal_value_cents: number | null;
  currency: string;
}

export function toLeadFormValues(lead: EditableLead): LeadFormValues {
  return {
    status: lead.status,
    ownerId: lead.owner_id ?? '',
    amount: centsToAmount(lead.deal_value_cents),
    currency: CURRENCIES.find((currency) => currency === lead.currency) ?? 'USD',
  };
}

/** Only what changed, as update_lead takes it. */
export function leadChanges(lead: EditableLead, values: LeadFormValues) {
  const changes: {
    status?: LeadFormValues['status'];
    owner_id?: string | null;
    deal_value_cents?: number | null;
    currency?: LeadFormValues['currency'];
  } = {};
  if (values.status !== lead.status) changes.status = values.status;
  const ownerId = values.ownerId || null;
  if (ownerId !== lead.owner_id) changes.owner_id = ownerId;
  const cents = values.amount.trim() ? parseAmountToCents(values.amount) : null;
  if (cents !== lead.deal_value_cents) changes.deal_value_cents = cents;
  if (values.currency !== lead.currency) changes.currency = values.currency;
  return changes;
}

/** update_lead's argument names, as the form's fields. */
export const LEAD_FORM_FIELDS = {
  status: 'status',
  owner_id: 'ownerId',
  deal_value_cents: 'amount',
  currency: 'currency',
} as const;
