import { Link } from 'react-router';
import { adminBookingPath } from '@/config/paths';
import { formatClock, formatDay, visitorClock, type BookingListRow } from '../model/bookings';
import { BookingStatusBadge } from './booking-status-badge';

const HEADERS = ['When (your time)', 'Company', 'Visitor', 'Team size', 'Status', 'Partner'];

/**
 * The bookings as a table from 1024 px, as a list of cards below. A row opens
 * its booking: the company is the link, stretched over the whole row.
 */
export function BookingTable({
  rows,
  search,
  caption,
}: {
  rows: BookingListRow[];
  search: string;
  caption: string;
}) {
  return (
    <>
      <table className="hidden w-full text-left text-sm lg:table">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-sand-200 bg-sand-50 text-xs font-semibold tracking-wide text-ink-600 uppercase">
          <tr>
            {HEADERS.map((header) => (
              <th key={header} scope="col" className="px-4 py-3 whitespace-nowrap">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-sand-200">
          {rows.map((row) => (
            <tr key={row.id} className="relative align-top transition-colors hover:bg-sand-50">
              <td className="px-4 py-3 whitespace-nowrap">
                <time dateTime={row.starts_at} className="block font-semibold text-ink-900">
                  {formatDay(row.starts_at)}, {formatClock(row.starts_at)}
                </time>
                <span className="block text-ink-600">
                  Visitor: {visitorClock(row.starts_at, row.time_zone)}
                </span>
              </td>
              <td className="px-4 py-3">
                <Link
                  to={adminBookingPath(row.id, search)}
                  className="font-semibold text-azure-700 after:absolute after:inset-0 hover:underline"
                >
                  {row.company}
                </Link>
              </td>
              <td className="px-4 py-3">
                <span className="block text-ink-900">{row.full_name}</span>
                <span className="block break-all text-ink-600">{row.email}</span>
              </td>
              <td className="px-4 py-3 text-ink-700">{row.team_size}</td>
              <td className="px-4 py-3">
                <BookingStatusBadge status={row.status} />
              </td>
              <td className="px-4 py-3 text-ink-700">{row.partner ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul aria-label={caption} className="divide-y divide-sand-200 lg:hidden">
        {rows.map((row) => (
          <li key={row.id} className="relative grid gap-1 px-4 py-3 hover:bg-sand-50">
            <div className="flex items-start justify-between gap-3">
              <Link
                to={adminBookingPath(row.id, search)}
                className="font-semibold text-azure-700 after:absolute after:inset-0 hover:underline"
              >
                {row.company}
              </Link>
              <BookingStatusBadge status={row.status} />
            </div>
            <p className="text-sm font-semibold text-ink-900">
              <time dateTime={row.starts_at}>
                {formatDay(row.starts_at)}, {formatClock(row.starts_at)}
              </time>
            </p>
            <p className="text-sm text-ink-600">
              Visitor: {visitorClock(row.starts_at, row.time_zone)}
            </p>
            <p className="text-sm break-all text-ink-700">
              {row.full_name} · {row.email}
            </p>
            <p className="text-sm text-ink-600">
              Team of {row.team_size}
              {row.partner ? ` · via ${row.partner}` : ''}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
