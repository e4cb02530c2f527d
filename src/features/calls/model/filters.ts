/**
 * The calls views' filters, as they live in the URL (so a view can be shared):
 * `period` (7d | 30d | 90d) or `from`/`to` (YYYY-MM-DD, both days included),
 * `q`, `outcome` and `sentiment` (comma lists), `direction`, `number`, `sort`.
 * Anything missing or invalid quietly falls back to its default.
 */

export const OUTCOMES = ['resolved', 'escalated', 'voicemail', 'missed'] as const;
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export const DIRECTIONS = ['inbound', 'outbound'] as const;
export const SORTS = ['newest', 'oldest', 'longest', 'shortest'] as const;
export const PRESETS = ['7d', '30d', '90d'] as const;

export type Outcome = (typeof OUTCOMES)[number];
export type Sentiment = (typeof SENTIMENTS)[number];
export type Direction = (typeof DIRECTIONS)[number];
export type CallSort = (typeof SORTS)[number];
export type Preset = (typeof PRESETS)[number];

export type Period =
  { kind: 'preset'; preset: Preset } | { kind: 'range'; from: string; to: string };

export interface CallFilters {
  period: Period;
  q: string;
  outcome: Outcome[];
  sentiment: Sentiment[];
  direction: Direction | null;
  number: string;
  sort: CallSort;
}

export const DEFAULT_PRESET: Preset = '30d';
export const DEFAULT_SORT: CallSort = 'newest';
/** The longest custom period: a year and a day, so a leap year fits. */
export const MAX_RANGE_DAYS = 366;
export const MAX_QUERY_LENGTH = 200;

export const DEFAULT_FILTERS: CallFilters = {
  period: { kind: 'preset', preset: DEFAULT_PRESET },
  q: '',
  outcome: [],
  sentiment: [],
  direction: null,
  number: '',
  sort: DEFAULT_SORT,
};

/** The search parameters this module reads and writes; others (such as a page cursor) are left alone. */
export const FILTER_PARAMS = [
  'period',
  'from',
  'to',
  'q',
  'outcome',
  'sentiment',
  'direction',
  'number',
  'sort',
] as const;

const PRESET_DAYS: Record<Preset, number> = { '7d': 7, '30d': 30, '90d': 90 };

function isOneOf<T extends string>(values: readonly T[], value: string | null): value is T {
  return value !== null && (values as readonly string[]).includes(value);
}

/** The known values of a comma list, once each, in the canonical order. */
function parseList<T extends string>(values: readonly T[], raw: string | null): T[] {
  if (!raw) return [];
  const given = new Set(raw.split(',').map((value) => value.trim()));
  return values.filter((value) => given.has(value));
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a real calendar day written YYYY-MM-DD, else null. */
function dayNumber(day: string): number | null {
  const match = DAY_PATTERN.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, date);
  const check = new Date(time);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  return Math.round(time / 86_400_000);
}

function dayString(dayIndex: number): string {
  return new Date(dayIndex * 86_400_000).toISOString().slice(0, 10);
}

/** A calendar day moved by `days` (negative goes back). */
export function addDays(day: string, days: number): string {
  const index = dayNumber(day);
  if (index === null) throw new RangeError(`Not a day: ${day}`);
  return dayString(index + days);
}

/** The calendar day (YYYY-MM-DD) of an instant in the browser's time zone. */
export function localDay(instant: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
}

/** The instant a calendar day starts in the browser's time zone. */
export function startOfLocalDay(day: string): Date {
  const match = DAY_PATTERN.exec(day);
  if (!match) throw new RangeError(`Not a day: ${day}`);
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

/**
 * Checks a custom period: two real days, in order, at most MAX_RANGE_DAYS long
 * (in hours too, as the database measures it: a span with one more autumn
 * than spring clock change lasts an hour longer).
 */
export function isValidRange(from: string, to: string): boolean {
  const start = dayNumber(from);
  const end = dayNumber(to);
  if (start === null || end === null || start > end || end - start + 1 > MAX_RANGE_DAYS)
    return false;
  const span = startOfLocalDay(addDays(to, 1)).getTime() - startOfLocalDay(from).getTime();
  return span <= MAX_RANGE_DAYS * 86_400_000;
}

function parsePeriod(params: URLSearchParams): Period {
  const from = params.get('from');
  const to = params.get('to');
  if (from && to && isValidRange(from, to)) return { kind: 'range', from, to };
  const preset = params.get('period');
  return { kind: 'preset', preset: isOneOf(PRESETS, preset) ? preset : DEFAULT_PRESET };
}

/**
 * A phone number as people type it ('+1 (415) 555-0100', '14155550100')
 * written as stored ('+14155550100'); '' when it is not a whole E.164 number,
 * which is all the database's filter accepts.
 */
export function normalizeNumber(raw: string): string {
  const compact = raw.replace(/[\s().-]/g, '');
  const withPlus = compact.startsWith('+') ? compact : `+${compact}`;
  return /^\+[1-9][0-9]{6,14}$/.test(withPlus) ? withPlus : '';
}

export function parseCallFilters(params: URLSearchParams): CallFilters {
  const direction = params.get('direction');
  const sort = params.get('sort');
  return {
    period: parsePeriod(params),
    q: (params.get('q') ?? '').trim().replace(/\s+/g, ' ').slice(0, MAX_QUERY_LENGTH),
    outcome: parseList(OUTCOMES, params.get('outcome')),
    sentiment: parseList(SENTIMENTS, params.get('sentiment')),
    direction: isOneOf(DIRECTIONS, direction) ? direction : null,
    number: normalizeNumber(params.get('number') ?? ''),
    sort: isOneOf(SORTS, sort) ? sort : DEFAULT_SORT,
  };
}

/**
 * Writes the filters into a copy of `params`, leaving out the defaults (a plain
 * /dashboard stays plain) and keeping parameters that are not filters.
 */
export function withCallFilters(params: URLSearchParams, filters: CallFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of FILTER_PARAMS) next.delete(name);
  const { period } = filters;
  if (period.kind === 'range') {
    next.set('from', period.from);
    next.set('to', period.to);
  } else if (period.preset !== DEFAULT_PRESET) {
    next.set('period', period.preset);
  }
  if (filters.q) next.set('q', filters.q);
  if (filters.outcome.length > 0) next.set('outcome', filters.outcome.join(','));
  if (filters.sentiment.length > 0) next.set('sentiment', filters.sentiment.join(','));
  if (filters.direction) next.set('direction', filters.direction);
  if (filters.number) next.set('number', filters.number);
  if (filters.sort !== DEFAULT_SORT) next.set('sort', filters.sort);
  return next;
}

/** The query string ('?…', or '' for the defaults) of a view with these filters. */
export function callFiltersSearch(filters: CallFilters): string {
  const query = withCallFilters(new URLSearchParams(), filters).toString();
  return query ? `?${query}` : '';
}

/** Whether anything narrows the calls beyond the period (the sort narrows nothing). */
export function hasNarrowingFilters(filters: CallFilters): boolean {
  return (
    filters.q !== '' ||
    filters.outcome.length > 0 ||
    filters.sentiment.length > 0 ||
    filters.direction !== null ||
    filters.number !== ''
  );
}

/** The same view without search and filters: the period and sort stay. */
export function clearedFilters(filters: CallFilters): CallFilters {
  return { ...DEFAULT_FILTERS, period: filters.period, sort: filters.sort };
}

export interface PeriodRange {
  /** The first day and the last day, both included (YYYY-MM-DD, local). */
  fromDay: string;
  toDay: string;
  days: number;
  /** `[from, to)`: local midnight of the first day to local midnight after the last. */
  from: Date;
  to: Date;
}

/**
 * The instants a period covers in the browser's time zone. A preset of N days
 * is today and the N − 1 days before it, so it holds still all day long (and
 * so do the queries keyed by it) while a call that just ended is inside it.
 */
export function periodRange(period: Period, now: Date = new Date()): PeriodRange {
  const toDay = period.kind === 'range' ? period.to : localDay(now);
  const fromDay =
    period.kind === 'range' ? period.from : addDays(toDay, 1 - PRESET_DAYS[period.preset]);
  return {
    fromDay,
    toDay,
    days: (dayNumber(toDay) ?? 0) - (dayNumber(fromDay) ?? 0) + 1,
    from: startOfLocalDay(fromDay),
    to: startOfLocalDay(addDays(toDay, 1)),
  };
}

/**
 * The `p_filters` argument of filtered_calls, call_kpis and call_trends: only
 * what is set. (A type, not an interface, so it passes as JSON.)
 */
export type RpcFilters = {
  q?: string;
  outcome?: Outcome[];
  sentiment?: Sentiment[];
  direction?: Direction;
  number?: string;
};

export function toRpcFilters(filters: CallFilters): RpcFilters {
  const rpc: RpcFilters = {};
  if (filters.q) rpc.q = filters.q;
  if (filters.outcome.length > 0) rpc.outcome = filters.outcome;
  if (filters.sentiment.length > 0) rpc.sentiment = filters.sentiment;
  if (filters.direction) rpc.direction = filters.direction;
  if (filters.number) rpc.number = filters.number;
  return rpc;
}

/** The arguments every calls RPC shares. */
export interface CallsQueryArgs {
  p_workspace_id: string;
  p_from: string;
  p_to: string;
  p_filters: RpcFilters;
}

export function callsQueryArgs(
  workspaceId: string,
  filters: CallFilters,
  now: Date = new Date(),
): CallsQueryArgs {
  const range = periodRange(filters.period, now);
  return {
    p_workspace_id: workspaceId,
    p_from: range.from.toISOString(),
    p_to: range.to.toISOString(),
    p_filters: toRpcFilters(filters),
  };
}

/** The browser's IANA time zone, for the per-day trends. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const dayFormatWithYear = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A calendar day for people: 'Nov 24' (with the year when asked). */
export function formatDay(day: string, withYear = false): string {
  const index = dayNumber(day);
  if (index === null) return day;
  return (withYear ? dayFormatWithYear : dayFormat).format(new Date(index * 86_400_000));
}

/** 'the last 30 days' or 'Nov 1 – Nov 15, 2026': completes "Calls in …". */
export function describePeriod(period: Period): string {
  if (period.kind === 'preset') return `the last ${PRESET_DAYS[period.preset]} days`;
  if (period.from === period.to) return formatDay(period.from, true);
  return `${formatDay(period.from)} – ${formatDay(period.to, true)}`;
}

/** 'the previous 30 days': what the KPI changes compare against. */
export function describePreviousPeriod(range: PeriodRange): string {
  return range.days === 1 ? 'the day before' : `the previous ${range.days} days`;
}
