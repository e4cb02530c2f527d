import { z } from 'zod';

/** The tables whose admin changes are logged (the audit trigger's list), with how people call them. */
export const AUDITED_TABLES = {
  leads: 'Leads',
  lead_notes: 'Lead notes',
  demo_bookings: 'Demo bookings',
  availability_rules: 'Availability rules',
  blackout_dates: 'Blackout dates',
  scheduler_settings: 'Scheduler settings',
  partner_applications: 'Partner applications',
  partners: 'Partners',
  commissions: 'Partner commissions',
  payouts: 'Partner payouts',
  deal_registrations: 'Deal registrations',
  site_settings: 'Site settings',
  outbox_messages: 'Emails',
  // Not a table of ours: accounts, logged by the admin users functions (decision 025).
  users: 'Users',
} as const;
export type AuditedTable = keyof typeof AUDITED_TABLES;

export const AUDIT_ACTIONS = { insert: 'Added', update: 'Changed', delete: 'Removed' } as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.enum(['insert', 'update', 'delete']),
  target_table: z.string(),
  target_id: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  client_ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export interface AuditFilters {
  table: AuditedTable | null;
  action: AuditAction | null;
  /** Part of the admin's email. */
  actor: string;
  /** A record's id, exactly. */
  target: string;
}

/** The filters in the URL; anything unknown is ignored. */
export function parseAuditFilters(params: URLSearchParams): AuditFilters {
  const table = params.get('table');
  const action = params.get('action');
  return {
    table: table && table in AUDITED_TABLES ? (table as AuditedTable) : null,
    action: action && action in AUDIT_ACTIONS ? (action as AuditAction) : null,
    actor: (params.get('actor') ?? '').trim().slice(0, 254),
    target: (params.get('target') ?? '').trim().slice(0, 100),
  };
}

/** A value as a person reads it in a change list. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The fields an entry shows: for a change, what it was and what it became. */
export function changedFields(
  entry: Pick<AuditEntry, 'action' | 'before' | 'after'>,
): { field: string; before: string | null; after: string | null }[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (field) =>
      !['updated_at', 'version', 'created_at'].includes(field) || entry.action === 'update',
  );
  return fields.map((field) => ({
    field,
    before: entry.action === 'insert' ? null : formatValue(before[field]),
    after: entry.action === 'delete' ? null : formatValue(after[field]),
  }));
}

/**
 * A user's text as a PostgREST `ilike` pattern that finds it anywhere: `%`, `_`
 * and `\` escaped, `*` (PostgREST's wildcard, which no escape reaches) dropped.
 */
export function likePattern(text: string): string {
  const escaped = text.replace(/\*/g, '').replace(/[\\%_]/g, (character) => `\\${character}`);
  return `*${escaped}*`;
}
