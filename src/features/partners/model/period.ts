/**
 * The portal home's period: the last 30, 90 or 365 days, today included, as
 * `?period=30` in the URL. Days begin at the browser's midnight.
 */

export const PORTAL_PERIODS = [30, 90, 365] as const;
export type PortalPeriod = (typeof PORTAL_PERIODS)[number];
export const DEFAULT_PORTAL_PERIOD: PortalPeriod = 30;

/** The period in the query string; anything else is the default. */
export function parsePortalPeriod(params: URLSearchParams): PortalPeriod {
  const raw = Number(params.get('period'));
  return PORTAL_PERIODS.find((period) => period === raw) ?? DEFAULT_PORTAL_PERIOD;
}

/** A copy of `params` with the period set (the default leaves the URL clean). */
export function withPortalPeriod(params: URLSearchParams, period: PortalPeriod): URLSearchParams {
  const next = new URLSearchParams(params);
  if (period === DEFAULT_PORTAL_PERIOD) next.delete('period');
  else next.set('period', String(period));
  return next;
}

export interface PortalPeriodRange {
  /** The first instant of the first day. */
  from: Date;
  /** The first instant after the last day (today). */
  to: Date;
}

export function portalPeriodRange(period: PortalPeriod, now: Date = new Date()): PortalPeriodRange {
  const year = now.getFullYear();
  const month = now.getMonth();
  const day = now.getDate();
  // The Date constructor finds local midnight across a change of clocks.
  return {
    from: new Date(year, month, day + 1 - period),
    to: new Date(year, month, day + 1),
  };
}

/** 'the last 30 days', 'the last 12 months' */
export function describePortalPeriod(period: PortalPeriod): string {
  return period === 365 ? 'the last 12 months' : `the last ${period} days`;
}

/** The chooser's short label: '30 days', '12 months'. */
export function portalPeriodLabel(period: PortalPeriod): string {
  return period === 365 ? '12 months' : `${period} days`;
}
