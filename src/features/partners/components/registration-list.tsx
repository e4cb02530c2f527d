import { useInfiniteQuery } from '@tanstack/react-query';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { registrationsQuery, type RegistrationRow } from '../api/deal-registrations';
import {
  REGISTRATION_STATUS_HINTS,
  callVolumeLabel,
  registrationStatus,
  teamSizeLabel,
} from '../model/registration';
import { RegistrationStatusBadge } from './money-badges';

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const HEADERS = ['Company', 'Contact', 'Size', 'Registered', 'Status'] as const;

/** The partner's registrations, newest first: a table from 1024 px, cards below. */
export function RegistrationList({ partnerId }: { partnerId: string }) {
  const list = useInfiniteQuery(registrationsQuery(partnerId));
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];

  if (list.isPending) {
    return (
      <div role="status" className="grid gap-3">
        <span className="sr-only">Loading your registrations…</span>
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (list.isError) {
    return (
      <QueryError
        what="your registrations"
        onRetry={() => void list.refetch()}
        isRetrying={list.isFetching}
      />
    );
  }
  if (rows.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
        You have not registered a deal yet. A registration tells our sales team the prospect is
        yours: once accepted it becomes a lead credited to you, and its commission is yours when it
        is won.
      </p>
    );
  }
  return (
    <div className="overflow-hidden rounded-2xl border border-sand-200 bg-white">
      <table className="hidden w-full text-left text-sm lg:table">
        <caption className="sr-only">Your deal registrations, newest first</caption>
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
            <tr key={row.id} className="align-top">
              <td className="max-w-56 px-4 py-3 font-semibold break-words text-ink-900">
                {row.company}
              </td>
              <td className="max-w-64 px-4 py-3">
                <span className="block text-ink-900">{row.contact_name}</span>
                <span className="block break-words text-ink-600">{row.contact_email}</span>
              </td>
              <td className="px-4 py-3 text-ink-800">
                <span className="block whitespace-nowrap">{teamSizeLabel(row.team_size)}</span>
                <span className="block whitespace-nowrap text-ink-600">
                  {callVolumeLabel(row.monthly_call_volume)}
                </span>
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-ink-800">
                <time dateTime={row.created_at}>{dayFormat.format(new Date(row.created_at))}</time>
              </td>
              <td className="max-w-72 px-4 py-3">
                <Status registration={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul
        aria-label="Your deal registrations, newest first"
        className="divide-y divide-sand-200 lg:hidden"
      >
        {rows.map((row) => (
          <li key={row.id} className="grid gap-2 px-4 py-4 text-sm">
            <div className="flex items-start justify-between gap-3">
              <p className="min-w-0 text-base font-semibold break-words text-ink-900">
                {row.company}
              </p>
              <time dateTime={row.created_at} className="shrink-0 text-ink-600">
                {dayFormat.format(new Date(row.created_at))}
              </time>
            </div>
            <p className="break-words text-ink-800">
              {row.contact_name}
              <span className="block text-ink-600">{row.contact_email}</span>
            </p>
            <p className="text-ink-600">
              {teamSizeLabel(row.team_size)} · {callVolumeLabel(row.monthly_call_volume)}
            </p>
            <Status registration={row} />
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 px-4 py-3">
        <p className="text-sm text-ink-600">
          {rows.length} registration{rows.length === 1 ? '' : 's'} shown
        </p>
        {list.hasNextPage ? (
          <Button
            variant="secondary"
            onClick={() => void list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
            aria-busy={list.isFetchingNextPage || undefined}
          >
            {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

function Status({ registration }: { registration: RegistrationRow }) {
  const status = registrationStatus(registration.status);
  return (
    <div className="grid justify-items-start gap-1">
      <RegistrationStatusBadge status={status} />
      <p className="text-sm break-words text-ink-700">
        {status === 'rejected' && registration.decision_reason
          ? `Reason: ${registration.decision_reason}`
          : REGISTRATION_STATUS_HINTS[status]}
      </p>
    </div>
  );
}
