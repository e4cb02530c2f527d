import { useInfiniteQuery } from '@tanstack/react-query';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { partnerReferralsQuery } from '../api/partner-referrals';
import { isNotAPartner } from '../api/partner-summary';
import { formatDay, KIND_LABELS, type ReferralKind, type ReferralRow } from '../model/referrals';
import { NoPartnerRecord } from './no-partner-record';
import { ReferralKindFilter } from './referral-kind-filter';
import { ReferralsEmpty } from './referrals-empty';
import { CommissionState, ReferralStatus } from './referral-status';

const HEADERS = ['Company', 'Kind', 'Status', 'Referred', 'Commission', 'Contact'];

/** The partner's referred leads and bookings, newest first; a table from 1024 px, cards below. */
export function ReferralList({
  userId,
  kind,
  onKind,
}: {
  userId: string;
  kind: ReferralKind;
  onKind: (kind: ReferralKind) => void;
}) {
  const list = useInfiniteQuery(partnerReferralsQuery(kind));
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];

  if (list.isError && isNotAPartner(list.error)) return <NoPartnerRecord />;
  // A partner with nothing referred yet learns how referrals arrive; no filter to offer.
  if (list.isSuccess && rows.length === 0 && kind === 'all')
    return <ReferralsEmpty userId={userId} />;

  return (
    <div className="grid gap-4">
      <ReferralKindFilter kind={kind} onChange={onKind} />
      {list.isPending ? (
        <p role="status" className="text-ink-600">
          Loading...
        </p>
      ) : list.isError ? (
        <QueryError
          what="your referrals"
          onRetry={() => void list.refetch()}
          isRetrying={list.isFetching}
        />
      ) : rows.length === 0 ? (
        <div className="grid justify-items-start gap-3 rounded-2xl border border-dashed border-sand-200 bg-white p-5 sm:p-6">
          <p className="text-ink-700">
            {kind === 'lead' ? 'No leads referred yet.' : 'No demo bookings referred yet.'}
          </p>
          <Button variant="secondary" onClick={() => onKind('all')}>
            Show all referrals
          </Button>
        </div>
      ) : (
        <ReferralTable
          rows={rows}
          hasMore={list.hasNextPage}
          isLoadingMore={list.isFetchingNextPage}
          onLoadMore={() => void list.fetchNextPage()}
        />
      )}
    </div>
  );
}

function ReferralTable({
  rows,
  hasMore,
  isLoadingMore,
  onLoadMore,
}: {
  rows: ReferralRow[];
  hasMore: boolean;
  isLoadingMore: boolean;
  onLoadMore: () => void;
}) {
  return (
    <section
      aria-label="Referrals"
      className="overflow-hidden rounded-2xl border border-sand-200 bg-white"
    >
      <table className="hidden w-full text-left text-sm lg:table">
        <caption className="sr-only">Your referrals, newest first</caption>
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
            <tr key={`${row.kind}-${row.id}`} className="align-top">
              <th scope="row" className="max-w-64 px-4 py-3 font-semibold break-words text-ink-900">
                {row.company}
              </th>
              <td className="px-4 py-3 whitespace-nowrap text-ink-800">{KIND_LABELS[row.kind]}</td>
              <td className="px-4 py-3">
                <ReferralStatus row={row} />
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-ink-800">
                <time dateTime={row.created_at}>{formatDay(row.created_at)}</time>
              </td>
              <td className="px-4 py-3">
                <CommissionState status={row.commission_status} />
              </td>
              <td className="max-w-64 px-4 py-3">
                <Contact row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul aria-label="Your referrals, newest first" className="divide-y divide-sand-200 lg:hidden">
        {rows.map((row) => (
          <ReferralCard key={`${row.kind}-${row.id}`} row={row} />
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 px-4 py-3">
        <p className="text-sm text-ink-600">
          {rows.length} referral{rows.length === 1 ? '' : 's'} shown
        </p>
        {hasMore ? (
          <Button
            variant="secondary"
            onClick={onLoadMore}
            disabled={isLoadingMore}
            aria-busy={isLoadingMore || undefined}
          >
            {isLoadingMore ? 'Loading...' : 'Load more'}
          </Button>
        ) : null}
      </div>
    </section>
  );
}

/** The contact only a lead the partner registered carries; nothing is said otherwise. */
function Contact({ row }: { row: ReferralRow }) {
  if (!row.contact_name && !row.contact_email) return <span className="text-ink-600">—</span>;
  return (
    <span className="grid">
      {row.contact_name ? <span className="text-ink-900">{row.contact_name}</span> : null}
      {row.contact_email ? (
        <a href={`mailto:${row.contact_email}`} className="break-all text-azure-700 underline">
          {row.contact_email}
        </a>
      ) : null}
    </span>
  );
}

function ReferralCard({ row }: { row: ReferralRow }) {
  return (
    <li className="grid gap-2 px-4 py-4">
      <div className="min-w-0">
        <p className="font-semibold break-words text-ink-900">{row.company}</p>
        <p className="text-sm text-ink-600">
          {KIND_LABELS[row.kind]} · referred{' '}
          <time dateTime={row.created_at}>{formatDay(row.created_at)}</time>
        </p>
      </div>
      <ReferralStatus row={row} layout="inline" />
      {row.commission_status ? (
        <p className="text-sm">
          <CommissionState status={row.commission_status} />
        </p>
      ) : null}
      {row.contact_name || row.contact_email ? (
        <p className="text-sm">
          <Contact row={row} />
        </p>
      ) : null}
    </li>
  );
}
