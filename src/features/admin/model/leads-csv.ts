import { z } from 'zod';

/** The export's columns, in order: the lead as stored (notes are a history of their own). */
export const LEAD_CSV_FIELDS = [
  'id',
  'created_at',
  'company',
  'full_name',
  'email',
  'job_role',
  'team_size',
  'monthly_call_volume',
  'tools',
  'message',
  'source',
  'partner_id',
  'status',
  'owner_id',
  'deal_value_cents',
  'currency',
  'status_changed_at',
] as const;

export const LEAD_CSV_COLUMNS = LEAD_CSV_FIELDS.join(', ');

export const leadCsvRowsSchema = z.array(
  z.object({ id: z.string(), created_at: z.string() }).catchall(z.unknown()),
);
export type LeadCsvRow = z.infer<typeof leadCsvRowsSchema>[number];

/**
 * One cell: the public form's free text could start a spreadsheet formula
 * (`=`, `+`, `-`, `@`, tab, CR), so such a cell gets a leading apostrophe;
 * then quoted when it holds a quote, comma or line break.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = Array.isArray(value) ? value.join('; ') : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toLeadsCsv(rows: LeadCsvRow[]): string {
  const lines = [
    LEAD_CSV_FIELDS.join(','),
    ...rows.map((row) => LEAD_CSV_FIELDS.map((field) => csvCell(row[field])).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** 'cervana-leads-2026-11-27.csv'. */
export function leadsCsvFileName(now: Date): string {
  return `cervana-leads-${now.toISOString().slice(0, 10)}.csv`;
}
