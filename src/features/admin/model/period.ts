/**
 * The overview's period: the last 7, 30 or 90 days, today included, as
 * `?period=` in the URL. Days begin at the browser's midnight; the previous
 * period is the same number of days just before.
 */

export const ADMIN_PERIODS = ['7d', '30d', '90d'] as const;
export type AdminPeriod = (typeof ADMIN_PERIODS)[number];
export const DEFAULT_ADMIN_PERIOD: AdminPeriod = '30d';

const DAYS: Record<AdminPeriod, number> = { '7d': 7, '30d': 30, '90d': 90 };

export function periodDays(period: AdminPeriod): number {
  return DAYS[period];
}

/** The period in the query string; anything else is the default. */
export function parseAdminPeriod(params: URLSearchParams): AdminPeriod {
  const raw = params.get('period');
  return ADMIN_PERIODS.find((period) => period === raw) ?? DEFAULT_ADMIN_PERIOD;
}

/** A copy of `params` with the period set. */
export function withAdminPeriod(params: URLSearchParams, period: AdminPeriod): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('period', period);
  return next;
}

export interface AdminPeriodRange {
  /** The first instant of the first day. */
  from: Date;
  /** The first instant after the last day (today). */
  to: Date;
}

export function adminPeriodRange(period: AdminPeriod, now: Date = new Date()): AdminPeriodRange {
  const year = now.getFullYear();
  const month = now.getMonth();
  const day = now.getDate();
  // The Date constructor finds local midnight across a change of clocks.
  return {
    from: new Date(year, month, day + 1 - DAYS[period]),
    to: new Date(year, month, day + 1),
  };
}

/** 'the last 30 days' */
export function describeAdminPeriod(period: AdminPeriod): string {
  return `the last ${DAYS[period]} days`;
}

/** 'the previous 30 days': what the changes compare against. */
export function describePreviousAdminPeriod(period: AdminPeriod): string {
  return `the previous ${DAYS[period]} days`;
}
