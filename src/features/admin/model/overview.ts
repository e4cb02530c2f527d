import { z } from 'zod';
import { ADMIN_LISTS } from './admin-lists';
import { countChange, formatCount, type CountChange } from './change';

const countsSchema = z.object({ current: z.number(), previous: z.number() });

/** What public.admin_overview returns. */
export const adminOverviewSchema = z.object({
  leads: countsSchema,
  bookings: countsSchema.extend({ current_cancelled: z.number(), previous_cancelled: z.number() }),
  partner_applications: countsSchema.extend({ pending: z.number() }),
  sign_ups: countsSchema,
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

export interface OverviewCard {
  id: 'leads' | 'bookings' | 'partner-applications' | 'sign-ups';
  label: string;
  value: string;
  change: CountChange;
  /** A short line under the value: what it counts. */
  note: string;
  href: string;
  /** The link's words: 'View leads'. */
  linkLabel: string;
}

const plural = (count: number, one: string, many: string) =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

/** The overview's four cards; `against` names the previous period. */
export function buildOverviewCards(overview: AdminOverview, against: string): OverviewCard[] {
  const { leads, bookings, partner_applications: applications, sign_ups: signUps } = overview;
  return [
    {
      id: 'leads',
      label: 'New leads',
      value: formatCount(leads.current),
      change: countChange(leads.current, leads.previous, against),
      note: 'Sales inquiries received',
      href: ADMIN_LISTS.leads,
      linkLabel: 'View leads',
    },
    {
      id: 'bookings',
      label: 'Demo bookings',
      value: formatCount(bookings.current),
      change: countChange(bookings.current, bookings.previous, against),
      note:
        bookings.current_cancelled > 0
          ? `Demos booked; ${formatCount(bookings.current_cancelled)} cancelled since`
          : 'Demos booked',
      href: ADMIN_LISTS.bookings,
      linkLabel: 'View bookings',
    },
    {
      id: 'partner-applications',
      label: 'Partner applications',
      value: formatCount(applications.current),
      change: countChange(applications.current, applications.previous, against),
      note:
        applications.pending === 0
          ? 'Received; none wait for review now'
          : `Received; ${plural(applications.pending, 'waits', 'wait')} for review now`,
      href: ADMIN_LISTS.partners,
      linkLabel: 'Review applications',
    },
    {
      id: 'sign-ups',
      label: 'Sign-ups',
      value: formatCount(signUps.current),
      change: countChange(signUps.current, signUps.previous, against),
      note: 'New accounts',
      href: ADMIN_LISTS.users,
      linkLabel: 'View users',
    },
  ];
}
