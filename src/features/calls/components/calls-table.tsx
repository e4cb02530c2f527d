import { Link } from 'react-router';
import { callPath } from '@/config/paths';
import { cn } from '@/lib/cn';
import { customerNumber, SORT_LABELS, type CallListRow } from '../model/call-list';
import { describeDurationLong, formatDuration } from '../model/kpis';
import { excerpt, formatCallTime } from '../model/call-time';
import { formatPhoneNumber } from '@/lib/phone-number';
import type { CallSort } from '../model/filters';
import { DirectionLabel, OutcomeBadge, SentimentLabel } from './call-badges';

const HEADERS = ['Time', 'Customer', 'Direction', 'Duration', 'Outcome', 'Sentiment', 'Summary'];

/**
 * The calls as a table (wide screens). A row opens its call: the time is the
 * link, stretched over the whole row for the pointer.
 */
export function CallsTable({
  rows,
  search,
  sort,
  newCallIds,
}: {
  rows: CallListRow[];
  search: string;
  sort: CallSort;
  newCallIds: readonly string[];
}) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Calls, {SORT_LABELS[sort].toLowerCase()}</caption>
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
        {rows.map((row) => {
          const isNew = newCallIds.includes(row.id);
          return (
            <tr
              key={row.id}
              className={cn(
                'relative align-top transition-colors hover:bg-sand-50',
                isNew && 'bg-azure-50',
              )}
            >
              <td className="px-4 py-3 whitespace-nowrap">
                <Link
                  to={callPath(row.id, search)}
                  className="font-semibold text-azure-700 after:absolute after:inset-0 hover:underline"
                >
                  {formatCallTime(row.started_at)}
                  <span className="sr-only">
                    , call with {formatPhoneNumber(customerNumber(row))}
                  </span>
                </Link>
                {isNew ? (
                  <span className="ml-2 rounded bg-azure-700 px-1.5 text-xs font-semibold text-white">
                    New
                  </span>
                ) : null}
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-ink-900 tabular-nums">
                {formatPhoneNumber(customerNumber(row))}
              </td>
              <td className="px-4 py-3">
                <DirectionLabel direction={row.direction} />
              </td>
              <td className="px-4 py-3 whitespace-nowrap tabular-nums">
                <span aria-hidden="true">{formatDuration(row.duration_seconds)}</span>
                <span className="sr-only">{describeDurationLong(row.duration_seconds)}</span>
              </td>
              <td className="px-4 py-3">
                <OutcomeBadge outcome={row.outcome} />
              </td>
              <td className="px-4 py-3">
                <SentimentLabel sentiment={row.sentiment} />
              </td>
              <td className="max-w-md px-4 py-3 text-ink-700">
                <span className="line-clamp-2">{excerpt(row.summary, 160) || '—'}</span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
