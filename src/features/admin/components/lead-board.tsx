import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { adminLeadPath } from '@/config/paths';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import { updateLead } from '../api/leads-detail';
import { leadsKeys } from '../api/leads-keys';
import { BOARD_COLUMN_SIZE, useLeadColumns } from '../api/leads-list';
import {
  LEAD_STATUSES,
  LEAD_STATUS_LABELS,
  formatDealValue,
  formatLeadTime,
  type LeadFilters,
  type LeadListRow,
  type LeadStatus,
} from '../model/leads';

/**
 * The pipeline as columns: each status with its count and its newest leads,
 * each card with a "Move to" choice saved from the version the board shows.
 */
export function LeadBoard({
  filters,
  userId,
  counts,
  search,
}: {
  filters: LeadFilters;
  userId: string;
  counts: (number | undefined)[];
  search: string;
}) {
  const statuses = filters.statuses.length > 0 ? filters.statuses : [...LEAD_STATUSES];
  const columns = useLeadColumns(filters, userId, statuses);
  const queryClient = useQueryClient();

  return (
    <div className="-mx-4 overflow-x-auto px-4 pb-2">
      <div className="grid auto-cols-[minmax(11rem,1fr)] grid-flow-col gap-4">
        {statuses.map((status, index) => {
          const column = columns[index];
          const count = counts[LEAD_STATUSES.indexOf(status)];
          return (
            <section
              key={status}
              aria-labelledby={`board-${status}`}
              className="grid content-start gap-3 rounded-2xl border border-sand-200 bg-sand-50 p-3"
            >
              <h2
                id={`board-${status}`}
                className="flex items-baseline justify-between text-sm font-semibold text-ink-900"
              >
                {LEAD_STATUS_LABELS[status]}
                <span className="text-ink-600 tabular-nums">
                  {count === undefined ? '…' : count.toLocaleString('en-US')}
                </span>
              </h2>
              {column?.isError ? (
                <QueryError
                  what={`the ${LEAD_STATUS_LABELS[status].toLowerCase()} leads`}
                  onRetry={() => void column.refetch()}
                  isRetrying={column.isFetching}
                />
              ) : !column?.data ? (
                <Skeleton className="h-24 w-full rounded-xl" />
              ) : column.data.length === 0 ? (
                <p className="text-sm text-ink-600">None.</p>
              ) : (
                <ul className="grid gap-2">
                  {column.data.map((lead) => (
                    <LeadCard
                      key={`${lead.id}:${lead.version}`}
                      lead={lead}
                      search={search}
                      onMoved={() => queryClient.invalidateQueries({ queryKey: leadsKeys.all })}
                    />
                  ))}
                </ul>
              )}
              {count !== undefined && count > BOARD_COLUMN_SIZE ? (
                <p className="text-xs text-ink-600">
                  The newest {BOARD_COLUMN_SIZE} of {count.toLocaleString('en-US')}.
                </p>
              ) : null}
            </section>
          );
        })}
      </div>
    </div>
  );
}

function LeadCard({
  lead,
  search,
  onMoved,
}: {
  lead: LeadListRow;
  search: string;
  onMoved: () => Promise<unknown>;
}) {
  const [isMoving, setIsMoving] = useState(false);
  const selectId = `move-${lead.id}`;

  const handleMove = async (status: LeadStatus) => {
    setIsMoving(true);
    try {
      await updateLead(lead.id, { status }, lead.version);
      await onMoved();
      void showToast('success', `${lead.company} moved to ${LEAD_STATUS_LABELS[status]}.`);
    } catch (error) {
      // A won lead needs its value: the database's sentence says so; the lead's page takes it.
      void showToast('error', rpcErrorMessage(error));
      await onMoved();
    } finally {
      setIsMoving(false);
    }
  };

  return (
    <li className="grid gap-2 rounded-xl border border-sand-200 bg-white p-3">
      <Link
        to={adminLeadPath(lead.id, search)}
        className="font-semibold text-azure-700 hover:underline"
      >
        {lead.company}
      </Link>
      <p className="text-sm text-ink-700">{lead.full_name}</p>
      <p className="text-xs text-ink-600">
        <time dateTime={lead.created_at}>{formatLeadTime(lead.created_at)}</time>
        {lead.deal_value_cents !== null
          ? ` · ${formatDealValue(lead.deal_value_cents, lead.currency)}`
          : ''}
      </p>
      <label htmlFor={selectId} className="sr-only">
        Move {lead.company} to
      </label>
      <Select
        id={selectId}
        value=""
        disabled={isMoving}
        aria-busy={isMoving || undefined}
        className="h-9 text-sm"
        onChange={(event) => {
          const next = LEAD_STATUSES.find((status) => status === event.target.value);
          if (next) void handleMove(next);
        }}
      >
        <option value="" disabled>
          {isMoving ? 'Moving…' : 'Move to…'}
        </option>
        {LEAD_STATUSES.filter((status) => status !== lead.status).map((status) => (
          <option key={status} value={status}>
            {LEAD_STATUS_LABELS[status]}
          </option>
        ))}
      </Select>
    </li>
  );
}
