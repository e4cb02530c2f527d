import { Link } from 'react-router';
import { callPath } from '@/config/paths';
import { cn } from '@/lib/cn';
import { customerNumber, type CallListRow } from '../model/call-list';
import { DIRECTION_LABELS } from '../model/call-labels';
import { excerpt, formatCallTime } from '../model/call-time';
import { formatPhoneNumber } from '@/lib/phone-number';
import { formatDuration } from '../model/kpis';
import { OutcomeBadge } from './call-badges';

/**
 * Calls as a list of cards: the phone layout of the table, and the overview's
 * latest calls. Each card opens the call, keeping `search` for the way back.
 */
export function CallList({
  rows,
  search,
  newCallIds = [],
  className,
}: {
  rows: CallListRow[];
  search: string;
  newCallIds?: readonly string[];
  className?: string;
}) {
  return (
    <ul className={cn('divide-y divide-sand-200', className)}>
      {rows.map((row) => {
        const isNew = newCallIds.includes(row.id);
        const summary = excerpt(row.summary, 120);
        return (
          <li key={row.id}>
            <Link
              to={callPath(row.id, search)}
              className={cn(
                'grid gap-1 px-4 py-3 transition-colors hover:bg-sand-50 sm:px-5',
                isNew && 'bg-azure-50',
              )}
            >
              <span className="flex items-center justify-between gap-3">
                <span className="font-semibold text-ink-900 tabular-nums">
                  {formatPhoneNumber(customerNumber(row))}
                </span>
                <OutcomeBadge outcome={row.outcome} />
              </span>
              <span className="flex flex-wrap items-center gap-x-2 text-sm text-ink-600">
                {isNew ? (
                  <span className="rounded bg-azure-700 px-1.5 text-xs font-semibold text-white">
                    New
                  </span>
                ) : null}
                <span>{formatCallTime(row.started_at)}</span>
                <span aria-hidden="true">·</span>
                <span>{DIRECTION_LABELS[row.direction]}</span>
                <span aria-hidden="true">·</span>
                <span className="tabular-nums">{formatDuration(row.duration_seconds)}</span>
              </span>
              {summary ? (
                <span className="line-clamp-2 text-sm text-ink-700">{summary}</span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
