import { z } from 'zod';
import { DIRECTIONS, OUTCOMES, SENTIMENTS, type CallSort } from './filters';

/** The columns the lists show, and nothing more (no transcript): what they select. */
export const CALL_LIST_COLUMNS =
  'id, started_at, direction, from_number, to_number, duration_seconds, outcome, sentiment, summary, is_sample';

export const callListRowSchema = z.object({
  id: z.string(),
  started_at: z.string(),
  direction: z.enum(DIRECTIONS),
  from_number: z.string(),
  to_number: z.string(),
  duration_seconds: z.number(),
  outcome: z.enum(OUTCOMES),
  sentiment: z.enum(SENTIMENTS).nullable(),
  summary: z.string().nullable(),
  is_sample: z.boolean(),
});
export type CallListRow = z.infer<typeof callListRowSchema>;
export const callListRowsSchema = z.array(callListRowSchema);

/** The customer's side of the call: who called in, or whom the agent called. */
export function customerNumber(row: Pick<CallListRow, 'direction' | 'from_number' | 'to_number'>) {
  return row.direction === 'inbound' ? row.from_number : row.to_number;
}

/** Each sort as a column and a direction; the id breaks ties so the order is total. */
export const SORT_ORDER: Record<
  CallSort,
  { column: 'started_at' | 'duration_seconds'; ascending: boolean }
> = {
  newest: { column: 'started_at', ascending: false },
  oldest: { column: 'started_at', ascending: true },
  longest: { column: 'duration_seconds', ascending: false },
  shortest: { column: 'duration_seconds', ascending: true },
};

export const SORT_LABELS: Record<CallSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  longest: 'Longest first',
  shortest: 'Shortest first',
};

/**
 * A keyset page: the rows after (or before) a cursor, which holds the sort
 * column's value and the id of the row at the page's edge. In the URL as
 * `after=` or `before=`, so a page can be shared and "back" returns to it.
 */
export type PageCursor = { edge: 'after' | 'before'; value: string; id: string };

export const PAGE_SIZE = 25;
/** The dashboard's latest calls. */
export const RECENT_CALLS = 5;
export const CURSOR_PARAMS = ['after', 'before'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A timestamp as PostgREST writes it, or a whole number of seconds. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
const SECONDS = /^\d{1,5}$/;

/** The cursor at a row: its value in the sort column, and its id. */
export function cursorAt(row: CallListRow, sort: CallSort, edge: PageCursor['edge']): PageCursor {
  const value =
    SORT_ORDER[sort].column === 'started_at' ? row.started_at : String(row.duration_seconds);
  return { edge, value, id: row.id };
}

/** The cursor in the URL, if it is one for this sort; anything else means the first page. */
export function parseCursor(params: URLSearchParams, sort: CallSort): PageCursor | null {
  for (const edge of CURSOR_PARAMS) {
    const raw = params.get(edge);
    if (!raw) continue;
    const split = raw.lastIndexOf('~');
    const value = raw.slice(0, split);
    const id = raw.slice(split + 1);
    const pattern = SORT_ORDER[sort].column === 'started_at' ? TIMESTAMP : SECONDS;
    if (split > 0 && UUID.test(id) && pattern.test(value)) return { edge, value, id };
    return null;
  }
  return null;
}

/** The URL parameters of a page: the cursor set, the other one dropped. */
export function withCursor(params: URLSearchParams, cursor: PageCursor | null): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const edge of CURSOR_PARAMS) next.delete(edge);
  if (cursor) next.set(cursor.edge, `${cursor.value}~${cursor.id}`);
  return next;
}

/**
 * How to ask for a page: the order to read in (reversed for the page before a
 * cursor, then turned back) and the PostgREST `or` filter that starts after
 * the cursor's row. Values are quoted: timestamps hold ':' and '+'.
 */
export function pageQuery(sort: CallSort, cursor: PageCursor | null) {
  const { column, ascending } = SORT_ORDER[sort];
  const readAscending = cursor?.edge === 'before' ? !ascending : ascending;
  if (!cursor) return { column, ascending: readAscending, after: null };
  const operator = readAscending ? 'gt' : 'lt';
  const value = `"${cursor.value}"`;
  return {
    column,
    ascending: readAscending,
    after: `${column}.${operator}.${value},and(${column}.eq.${value},id.${operator}.${cursor.id})`,
  };
}

export interface CallPage {
  rows: CallListRow[];
  /** Cursors to the neighbouring pages; null where there is none. */
  previous: PageCursor | null;
  next: PageCursor | null;
}

/**
 * Makes a page of what was read: one row more than a page was asked for, so
 * whether another page lies beyond is known without counting.
 */
export function toPage(
  fetched: CallListRow[],
  sort: CallSort,
  cursor: PageCursor | null,
  pageSize = PAGE_SIZE,
): CallPage {
  const hasMore = fetched.length > pageSize;
  const taken = fetched.slice(0, pageSize);
  const isBackwards = cursor?.edge === 'before';
  const rows = isBackwards ? taken.reverse() : taken;
  const first = rows[0];
  const last = rows.at(-1);
  // Forwards, the rows before exist when we came from a cursor; backwards, those after do.
  const hasPrevious = isBackwards ? hasMore : cursor !== null;
  const hasNext = isBackwards ? true : hasMore;
  return {
    rows,
    previous: hasPrevious && first ? cursorAt(first, sort, 'before') : null,
    next: hasNext && last ? cursorAt(last, sort, 'after') : null,
  };
}

/** 'cervana-calls-2026-10-26-to-2026-11-24.csv'. */
export function csvFileName(fromDay: string, toDay: string): string {
  return fromDay === toDay
    ? `cervana-calls-${fromDay}.csv`
    : `cervana-calls-${fromDay}-to-${toDay}.csv`;
}

/** The columns of the export, in order: everything the table shows, in full, and the id. */
export const CSV_COLUMNS =
  'id, started_at, direction, from_number, to_number, duration_seconds, outcome, sentiment, summary, is_sample';
