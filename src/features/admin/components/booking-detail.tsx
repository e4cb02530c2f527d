import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { PortalPage } from '@/components/layout/portal-page';
import { buttonStyles } from '@/components/ui/button-styles';
import { Skeleton } from '@/components/ui/skeleton';
import { adminLeadPath, paths } from '@/config/paths';
import { useBooking, type BookingDetail as Detail } from '../api/bookings';
import { changedFields } from '../model/audit-log';
import {
  BOOKING_STATUS_LABELS,
  browserTimeZone,
  formatSlot,
  visitorClock,
} from '../model/bookings';
import { formatLeadTime } from '../model/leads';
import { BookingActions } from './booking-actions';
import { BookingLeadForm } from './booking-lead-form';
import { BookingStatusBadge } from './booking-status-badge';

const FIELD_NAMES: Record<string, string> = {
  starts_at: 'Starts',
  ends_at: 'Ends',
  status: 'Status',
  cancel_reason: 'Reason',
  cancelled_at: 'Cancelled at',
  notes: 'Notes',
  revision: 'Invite sequence',
};
const FIELD_ORDER = Object.keys(FIELD_NAMES);

/** A booking's page: the visitor's answers, its lead and partner, moving or cancelling it, its history. */
export function BookingDetail({ bookingId, backTo }: { bookingId: string; backTo: string }) {
  const detail = useBooking(bookingId);
  const back = (
    <Link to={backTo} className={buttonStyles({ variant: 'secondary' })}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to bookings
    </Link>
  );

  if (detail.isError) {
    return (
      <PortalPage eyebrow="Admin · Bookings" title="Demo booking" actions={back}>
        <QueryError
          what="this booking"
          onRetry={() => void detail.refetch()}
          isRetrying={detail.isFetching}
        />
      </PortalPage>
    );
  }
  if (detail.data === undefined) {
    return (
      <PortalPage eyebrow="Admin · Bookings" title="Demo booking" actions={back}>
        <div role="status" className="grid gap-4">
          <span className="sr-only">Loading the booking…</span>
          <Skeleton className="h-40 w-full rounded-2xl" />
          <Skeleton className="h-64 w-full rounded-2xl" />
        </div>
      </PortalPage>
    );
  }
  if (detail.data === null) {
    return (
      <PortalPage eyebrow="Admin · Bookings" title="Booking not found" actions={back}>
        <p className="text-ink-700">There is no demo booking at this address (any more).</p>
      </PortalPage>
    );
  }

  const { booking } = detail.data;
  return (
    <PortalPage
      eyebrow="Admin · Bookings"
      title={booking.company}
      description={
        <p className="flex flex-wrap items-center gap-2">
          <BookingStatusBadge status={booking.status} />
          <time dateTime={booking.starts_at}>{formatSlot(booking.starts_at, booking.ends_at)}</time>
        </p>
      }
      actions={back}
    >
      {/* On a phone: the facts, then what can be done, then the history. */}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:items-start">
        <div className="lg:col-start-1 lg:row-start-1">
          <BookingFacts detail={detail.data} />
        </div>
        <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <BookingActions
            key={`${booking.id}:${booking.version}`}
            booking={booking}
            onReload={() => detail.refetch()}
          />
        </div>
        <div className="lg:col-start-1 lg:row-start-2">
          <BookingHistory detail={detail.data} />
        </div>
      </div>
    </PortalPage>
  );
}

function BookingFacts({ detail }: { detail: Detail }) {
  const { booking, leads } = detail;
  const facts: [string, ReactNode][] = [
    [
      'When',
      <>
        {formatSlot(booking.starts_at, booking.ends_at)} ({browserTimeZone()})
        <span className="block text-ink-600">
          Visitor: {visitorClock(booking.starts_at, booking.time_zone)}
        </span>
      </>,
    ],
    ['Visitor', booking.full_name],
    [
      'Email',
      <a
        key="email"
        href={`mailto:${booking.email}`}
        className="break-all text-azure-700 hover:underline"
      >
        {booking.email}
      </a>,
    ],
    ['Company', booking.company],
    ['Team size', booking.team_size],
    [
      'Lead',
      leads.length === 0 ? (
        <BookingLeadForm bookingId={booking.id} hasPartner={booking.partner !== null} />
      ) : (
        <ul className="grid gap-1">
          {leads.map((lead) => (
            <li key={lead.id}>
              <Link to={adminLeadPath(lead.id)} className="text-azure-700 hover:underline">
                {lead.company} ({lead.status}, {formatLeadTime(lead.created_at)})
              </Link>
            </li>
          ))}
        </ul>
      ),
    ],
    [
      'Partner',
      booking.partner ? `${booking.partner.company} (${booking.partner.referral_code})` : '—',
    ],
    ['Booked', formatLeadTime(booking.created_at)],
    ...(booking.status === 'cancelled'
      ? ([
          ['Cancelled', booking.cancelled_at ? formatLeadTime(booking.cancelled_at) : '—'],
          ['Reason', booking.cancel_reason ?? '(none given)'],
        ] as [string, ReactNode][])
      : []),
  ];
  return (
    <section
      aria-labelledby="booking-facts-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="booking-facts-heading" className="text-lg font-semibold text-ink-900">
        What the visitor told us
      </h2>
      <dl className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-[auto_1fr]">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-sm font-semibold text-ink-600">{term}</dt>
            <dd className="text-sm text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-6 text-sm font-semibold text-ink-600">Notes</h3>
      <p className="mt-1 text-sm whitespace-pre-wrap text-ink-900">{booking.notes ?? '—'}</p>
    </section>
  );
}

function BookingHistory({ detail }: { detail: Detail }) {
  return (
    <section
      aria-labelledby="booking-history-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="booking-history-heading" className="text-lg font-semibold text-ink-900">
          Changes by the team
        </h2>
        <Link
          to={`${paths.adminAudit}?table=demo_bookings&target=${detail.booking.id}`}
          className="text-sm text-azure-700 hover:underline"
        >
          In the audit log
        </Link>
      </div>
      {detail.history.length === 0 ? (
        <p className="mt-3 text-sm text-ink-600">No admin has changed this booking.</p>
      ) : (
        <ol aria-label="Changes to this booking" className="mt-3 grid gap-3">
          {detail.history.map((entry) => (
            <li key={entry.id} className="text-sm">
              <p className="font-semibold text-ink-900">
                <time dateTime={entry.at}>{formatLeadTime(entry.at)}</time> ·{' '}
                {entry.actor_email ?? 'An admin'}
              </p>
              <ul className="mt-1 grid gap-0.5 text-ink-700">
                {changedFields(entry)
                  .filter((change) => change.field in FIELD_NAMES)
                  .sort((a, b) => FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field))
                  .map((change) => (
                    <li key={change.field} className="break-words">
                      {FIELD_NAMES[change.field]}: {showValue(change.field, change.before)} →{' '}
                      {showValue(change.field, change.after)}
                    </li>
                  ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function showValue(field: string, value: string | null): string {
  if (value === null) return '(none)';
  if (field === 'status' && (value === 'confirmed' || value === 'cancelled')) {
    return BOOKING_STATUS_LABELS[value];
  }
  if (
    (field === 'starts_at' || field === 'ends_at' || field === 'cancelled_at') &&
    value !== '(empty)'
  ) {
    return formatLeadTime(value);
  }
  return value;
}
