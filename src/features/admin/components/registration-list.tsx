import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
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
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import {
  acceptRegistration,
  registrationsKeys,
  registrationsQuery,
  rejectRegistration,
} from '../api/deal-registrations';
import { leadsKeys } from '../api/leads-keys';
import {
  REGISTRATION_STATUSES,
  REGISTRATION_STATUS_LABELS,
  callVolumeLabel,
  teamSizeLabel,
  type RegistrationFilter,
  type RegistrationRow,
  type RegistrationStatus,
} from '../model/deal-registrations';
import { formatDay } from '../model/partners';
import { ReasonDialog } from './reason-dialog';

const pill =
  'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset';
const TONES: Record<RegistrationStatus, string> = {
  pending: 'bg-azure-50 text-azure-800 ring-azure-100',
  accepted: 'bg-mint-50 text-mint-800 ring-mint-200',
  rejected: 'bg-danger-50 text-danger-800 ring-danger-200',
};

/** Prospects partners registered, waiting ones first by default, newest first (keyset). */
export function RegistrationList({
  filter,
  onFilter,
}: {
  filter: RegistrationFilter;
  onFilter: (filter: RegistrationFilter) => void;
}) {
  const list = useInfiniteQuery(registrationsQuery(filter));
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];
  const pending = list.data?.pages[0]?.pending;

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <Field id="registration-status" label="Show" className="w-full sm:w-64">
          <Select
            id="registration-status"
            value={filter}
            onChange={(event) => onFilter(event.target.value as RegistrationFilter)}
          >
            {REGISTRATION_STATUSES.map((status) => (
              <option key={status} value={status}>
                {REGISTRATION_STATUS_LABELS[status]}
              </option>
            ))}
            <option value="all">All registrations</option>
          </Select>
        </Field>
        {pending !== undefined ? (
          <p className="text-sm text-ink-600">
            {pending === 0
              ? 'No deal registration is waiting for review.'
              : `${pending} deal registration${pending === 1 ? '' : 's'} waiting for review.`}
          </p>
        ) : null}
      </div>

      {list.isPending ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading deal registrations…</span>
          <Skeleton className="h-36 w-full" />
        </div>
      ) : list.isError ? (
        <QueryError
          what="the deal registrations"
          onRetry={() => void list.refetch()}
          isRetrying={list.isFetching}
        />
      ) : rows.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
          {filter === 'pending'
            ? 'No deal registration is waiting for review. Silver and Gold partners register prospects from their portal.'
            : 'No deal registrations match this filter.'}
        </p>
      ) : (
        <>
          <ul aria-label="Deal registrations, newest first" className="grid gap-4">
            {rows.map((row) => (
              <RegistrationCard key={row.id} registration={row} />
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

function RegistrationCard({ registration }: { registration: RegistrationRow }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const headingId = `registration-${registration.id}`;
  const refresh = () => queryClient.invalidateQueries({ queryKey: registrationsKeys.all });

  const accept = async () => {
    setError(null);
    try {
      await acceptRegistration(registration.id);
      void showToast(
        'success',
        `${registration.company} is a lead now, attributed to ${registration.partner_company}.`,
      );
    } catch (caught) {
      setError(rpcErrorMessage(caught));
    }
    // Leads changed too (a new one): their lists refetch when next shown.
    await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: leadsKeys.all })]);
  };

  const reject = async (reason: string) => {
    setError(null);
    await rejectRegistration(registration.id, reason);
    void showToast(
      'success',
      `${registration.partner_company}’s registration of ${registration.company} is rejected; they are emailed your reason.`,
    );
    await refresh();
  };

  return (
    <li
      aria-labelledby={headingId}
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold break-words text-ink-900">
            {registration.company}
          </h2>
          <p className="text-sm break-words text-ink-700">
            Registered by {registration.partner_company} · code {registration.referral_code}
          </p>
        </div>
        <span className={`${pill} ${TONES[registration.status]}`}>
          {REGISTRATION_STATUS_LABELS[registration.status]}
        </span>
      </div>

      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm lg:grid-cols-4">
        <div className="min-w-0">
          <dt className="text-ink-600">Contact</dt>
          <dd className="font-medium break-all text-ink-900">
            {registration.contact_name} ·{' '}
            <a
              href={`mailto:${registration.contact_email}`}
              className="text-azure-700 hover:underline"
            >
              {registration.contact_email}
            </a>
          </dd>
        </div>
        <div>
          <dt className="text-ink-600">Team size</dt>
          <dd className="font-medium text-ink-900">{teamSizeLabel(registration.team_size)}</dd>
        </div>
        <div>
          <dt className="text-ink-600">Calls a month</dt>
          <dd className="font-medium text-ink-900">
            {callVolumeLabel(registration.monthly_call_volume)}
          </dd>
        </div>
        <div>
          <dt className="text-ink-600">Registered</dt>
          <dd className="font-medium text-ink-900">
            <time dateTime={registration.created_at}>{formatDay(registration.created_at)}</time>
          </dd>
        </div>
        <div className="col-span-2 lg:col-span-4">
          <dt className="text-ink-600">Notes</dt>
          <dd className="break-words whitespace-pre-line text-ink-900">
            {registration.notes ?? 'No notes.'}
          </dd>
        </div>
      </dl>

      {registration.status === 'accepted' && registration.lead_id ? (
        <p className="text-sm text-ink-800">
          Accepted
          {registration.decided_at ? ` ${formatDay(registration.decided_at)}` : ''}:{' '}
          <Link
            to={`/admin/leads/${registration.lead_id}`}
            className="font-semibold text-azure-700 hover:underline"
          >
            open the lead<span className="sr-only"> for {registration.company}</span>
          </Link>
          , attributed to {registration.partner_company}.
        </p>
      ) : null}
      {registration.status === 'rejected' && registration.decision_reason ? (
        <p className="text-sm break-words whitespace-pre-line text-ink-800">
          <span className="font-semibold">Reason sent: </span>
          {registration.decision_reason}
        </p>
      ) : null}

      {error ? (
        <Alert tone="error">
          <p>{error}</p>
          <Button variant="secondary" className="mt-2" onClick={() => void refresh()}>
            Reload registrations
          </Button>
        </Alert>
      ) : null}

      {registration.status === 'pending' ? (
        <div className="flex flex-wrap gap-3">
          <ConfirmDialog
            trigger={
              <Button aria-label={`Accept the registration of ${registration.company}…`}>
                Accept…
              </Button>
            }
            title={`Accept ${registration.company}?`}
            description={
              <p>
                {registration.company} becomes a new lead attributed to{' '}
                {registration.partner_company}: if it is won, they earn its commission. They are
                emailed.
              </p>
            }
            confirmLabel="Accept and email"
            busyLabel="Accepting…"
            onConfirm={accept}
          />
          <ReasonDialog
            id={`registration-reason-${registration.id}`}
            triggerLabel="Reject…"
            triggerAriaLabel={`Reject the registration of ${registration.company}…`}
            title={`Reject ${registration.company}?`}
            description={
              <p>
                {registration.partner_company} is emailed your reason as you write it here. This
                cannot be undone.
              </p>
            }
            label="Reason for the partner"
            submitLabel="Reject and email"
            busyLabel="Rejecting…"
            onSubmit={reject}
          />
        </div>
      ) : null}
    </li>
  );
}
