import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { tierById } from '@/config/partner-program';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import {
  approveCommission,
  commissionsKeys,
  commissionsQuery,
  declineCommission,
  partnerOptionsQuery,
} from '../api/commissions';
import {
  COMMISSION_STATUSES,
  COMMISSION_STATUS_LABELS,
  formatMoney,
  formatRatePrecise,
  type CommissionFilters,
  type CommissionRow,
} from '../model/commissions';
import { formatDay } from '../model/partners';
import { CommissionStatusBadge } from './commission-badges';
import { ReasonDialog } from './reason-dialog';

/** Commissions, pending ones by default, newest first, more on request (keyset). */
export function CommissionList({
  filters,
  onFilters,
}: {
  filters: CommissionFilters;
  onFilters: (filters: CommissionFilters) => void;
}) {
  const list = useInfiniteQuery(commissionsQuery(filters));
  const partners = useQuery(partnerOptionsQuery());
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];
  const pending = list.data?.pages[0]?.pending;

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex w-full flex-wrap gap-4 sm:w-auto">
          <Field id="commission-status" label="Show" className="w-full sm:w-56">
            <Select
              id="commission-status"
              value={filters.status}
              onChange={(event) =>
                onFilters({
                  ...filters,
                  status: event.target.value as CommissionFilters['status'],
                })
              }
            >
              {COMMISSION_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {COMMISSION_STATUS_LABELS[status]}
                </option>
              ))}
              <option value="all">All commissions</option>
            </Select>
          </Field>
          <Field id="commission-partner" label="Partner" className="w-full sm:w-80">
            <Select
              id="commission-partner"
              value={filters.partnerId ?? ''}
              onChange={(event) => onFilters({ ...filters, partnerId: event.target.value || null })}
            >
              <option value="">All partners</option>
              {partners.data?.map((partner) => (
                <option key={partner.id} value={partner.id}>
                  {partner.company}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        {pending !== undefined ? (
          <p className="text-sm text-ink-600">
            {pending === 0
              ? 'No commission is waiting for approval.'
              : `${pending} commission${pending === 1 ? '' : 's'} waiting for approval${filters.partnerId ? ' across all partners' : ''}.`}
          </p>
        ) : null}
      </div>

      {list.isPending ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading commissions…</span>
          <Skeleton className="h-36 w-full" />
          <Skeleton className="h-36 w-full" />
        </div>
      ) : list.isError ? (
        <QueryError
          what="the commissions"
          onRetry={() => void list.refetch()}
          isRetrying={list.isFetching}
        />
      ) : rows.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
          {filters.status === 'pending' && !filters.partnerId
            ? 'No commission is waiting for approval. A partner’s lead marked won adds one here.'
            : 'No commissions match these filters.'}
        </p>
      ) : (
        <>
          <ul aria-label="Commissions, newest first" className="grid gap-4">
            {rows.map((row) => (
              <CommissionCard key={row.id} commission={row} />
            ))}
          </ul>
          {list.hasNextPage ? (
            <div>
              <Button
                variant="secondary"
                onClick={() => void list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
                aria-busy={list.isFetchingNextPage || undefined}
              >
                {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

function CommissionCard({ commission }: { commission: CommissionRow }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const headingId = `commission-${commission.id}`;
  const amount = formatMoney(commission.amount_cents, commission.currency);
  const refresh = () => queryClient.invalidateQueries({ queryKey: commissionsKeys.all });

  const approve = async () => {
    setError(null);
    try {
      await approveCommission(commission.id, commission.version);
      void showToast(
        'success',
        `${amount} for ${commission.partner_company} approved; they are emailed.`,
      );
      await refresh();
    } catch (caught) {
      // The dialog closes; the sentence stays on the card with a way to reload.
      setError(rpcErrorMessage(caught));
    }
  };

  const decline = async (reason: string) => {
    setError(null);
    try {
      await declineCommission(commission.id, reason, commission.version);
    } catch (caught) {
      // Shown in the dialog; kept on the card too, with the way to reload, once it closes.
      setError(rpcErrorMessage(caught));
      throw caught;
    }
    void showToast(
      'success',
      `${commission.partner_company}’s commission on ${commission.company} is declined; they are emailed your reason.`,
    );
    await refresh();
  };

  const reload = async () => {
    setError(null);
    await refresh();
  };

  const canDecline =
    commission.status === 'pending' ||
    (commission.status === 'approved' && commission.payout_id === null);

  return (
    <li
      aria-labelledby={headingId}
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold break-words text-ink-900">
            {commission.company}
          </h2>
          <p className="text-sm break-words text-ink-700">
            Referred by {commission.partner_company} · code {commission.referral_code}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <p className="text-lg font-semibold text-ink-900 tabular-nums">{amount}</p>
          <CommissionStatusBadge status={commission.status} />
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm lg:grid-cols-4">
        <div>
          <dt className="text-ink-600">Won</dt>
          <dd className="font-medium text-ink-900">
            <time dateTime={commission.won_at}>{formatDay(commission.won_at)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-ink-600">Deal value (first year)</dt>
          <dd className="font-medium text-ink-900 tabular-nums">
            {formatMoney(commission.deal_value_cents, commission.currency)}
          </dd>
        </div>
        <div>
          <dt className="text-ink-600">Tier and rate</dt>
          <dd className="font-medium text-ink-900">
            {tierById(commission.tier).name} · {formatRatePrecise(commission.rate)}
          </dd>
        </div>
        <div>
          <dt className="text-ink-600">Lead</dt>
          <dd className="font-medium">
            <Link
              to={`/admin/leads/${commission.lead_id}`}
              className="text-azure-700 hover:underline"
            >
              Open the lead<span className="sr-only"> for {commission.company}</span>
            </Link>
          </dd>
        </div>
      </dl>

      {commission.status === 'declined' && commission.decline_reason ? (
        <p className="text-sm break-words whitespace-pre-line text-ink-800">
          <span className="font-semibold">
            {commission.declined_automatically
              ? 'Declined automatically: '
              : 'Reason sent to the partner: '}
          </span>
          {commission.decline_reason}
        </p>
      ) : null}
      {commission.status === 'approved' && commission.payout_id ? (
        <p className="text-sm text-ink-700">In a payout being prepared.</p>
      ) : null}

      {error ? (
        <Alert tone="error">
          <p>{error}</p>
          <Button variant="secondary" className="mt-2" onClick={() => void reload()}>
            Reload commissions
          </Button>
        </Alert>
      ) : null}

      {commission.status === 'pending' || canDecline ? (
        <div className="flex flex-wrap gap-3">
          {commission.status === 'pending' ? (
            <ConfirmDialog
              trigger={
                <Button aria-label={`Approve ${amount} for ${commission.partner_company}…`}>
                  Approve…
                </Button>
              }
              title={`Approve ${amount} for ${commission.partner_company}?`}
              description={
                <p>
                  The commission on {commission.company} becomes owed to{' '}
                  {commission.partner_company} and is paid with their next payout. They are emailed.
                </p>
              }
              confirmLabel="Approve and email"
              busyLabel="Approving…"
              onConfirm={approve}
            />
          ) : null}
          {canDecline ? (
            <ReasonDialog
              id={`decline-reason-${commission.id}`}
              triggerLabel="Decline…"
              triggerAriaLabel={`Decline ${amount} for ${commission.partner_company}…`}
              title={`Decline ${amount} for ${commission.partner_company}?`}
              description={
                <p>
                  {commission.partner_company} is emailed your reason as you write it here, and sees
                  it in their portal. A declined commission cannot be approved again.
                </p>
              }
              label="Reason for the partner"
              submitLabel="Decline and email"
              busyLabel="Declining…"
              onSubmit={decline}
            />
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
