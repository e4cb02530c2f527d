/**
 * PostgreSQL's text form of a UTC timestamptz ("2026-11-21 10:51:42.229+00")
 * as GoTrue writes it in JSON: RFC 3339 with the fraction kept and a Z.
 */
export function toIsoTimestamp(value: string | Date | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value.toISOString();
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:\+00(?::00)?|Z)?$/.exec(
    value,
  );
  if (match) return `${match[1]}T${match[2]}Z`;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString();
}

export function epochSeconds(value: string | Date): number {
  const date = value instanceof Date ? value : new Date(toIsoTimestamp(value) ?? value);
  return Math.floor(date.getTime() / 1000);
}
