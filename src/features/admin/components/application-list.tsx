import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import {
  applicationsQuery,
  approveApplication,
  partnersKeys,
  rejectApplication,
} from '../api/partners';
import {
  APPLICATION_STATUSES,
  APPLICATION_STATUS_LABELS,
  PARTNER_TYPE_LABELS,
  formatDay,
  type ApplicationFilter,
  type ApplicationRow,
} from '../model/partners';
import { ApplicationStatusBadge } from './partner-badges';
import { RejectApplicationDialog } from './reject-application-dialog';

/** Applications, waiting ones first by default, newest first, more on request (keyset). */
export function ApplicationList({
  filter,
  onFilter,
}: {
  filter: ApplicationFilter;
  onFilter: (filter: ApplicationFilter) => void;
}) {
  const list = useInfiniteQuery(applicationsQuery(filter));
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];
  const pending = list.data?.pages[0]?.pending;

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <Field id="application-status" label="Show" className="w-full sm:w-64">
          <Select
            id="application-status"
            value={filter}
            onChange={(event) => onFilter(event.target.value as ApplicationFilter)}
          >
            {APPLICATION_STATUSES.map((status) => (
              <option key={status} value={status}>
                {APPLICATION_STATUS_LABELS[status]}
              </option>
            ))}
            <option value="all">All applications</option>
          </Select>
        </Field>
        {pending !== undefined ? (
          <p className="text-sm text-ink-600">
            {pending === 0
              ? 'No application is waiting for review.'
              : `${pending} application${pending === 1 ? '' : 's'} waiting for review.`}
          </p>
        ) : null}
      </div>

      {list.isPending ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading applications…</span>
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : list.isError ? (
        <QueryError
          what="the applications"
          onRetry={() => void list.refetch()}
          isRetrying={list.isFetching}
        />
      ) : rows.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
          {filter === 'pending'
            ? 'No application is waiting for review. New ones appear here once the applicant confirms their email address.'
            : 'No applications match this filter.'}
        </p>
      ) : (
        <>
          <ul aria-label="Partner applications, newest first" className="grid gap-4">
            {rows.map((row) => (
              <ApplicationCard key={row.id} application={row} />
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
                {list.isFetchingNextPage ? 'Loading…' : 'Show older applications'}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

function ApplicationCard({ application }: { application: ApplicationRow }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const headingId = `application-${application.id}`;

  const refresh = () => queryClient.invalidateQueries({ queryKey: partnersKeys.all });

  const approve = async () => {
    setError(null);
    try {
      const result = await approveApplication(application.id);
      void showToast(
        'success',
        result.referral_code
          ? `${application.company} is a partner now (code ${result.referral_code}).`
          : `${application.company} is approved: they become a partner once they create their account.`,
      );
      await refresh();
    } catch (caught) {
      // The dialog closes; the sentence stays on the card (and in a toast, in
      // case the list no longer shows it: another admin decided first).
      const message = rpcErrorMessage(caught);
      setError(message);
      void showToast('error', message);
      await refresh();
    }
  };

  const reject = async (reason: string) => {
    setError(null);
    await rejectApplication(application.id, reason);
    void showToast(
      'success',
      `${application.company}’s application is rejected; they are emailed your reason.`,
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
            {application.company}
          </h2>
          <p className="text-sm break-all text-ink-700">
            {application.full_name} ·{' '}
            <a href={`mailto:${application.email}`} className="text-azure-700 hover:underline">
              {application.email}
            </a>
          </p>
        </div>
        <ApplicationStatusBadge status={application.status} />
      </div>

      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm lg:grid-cols-4">
        <div>
          <dt className="text-ink-600">Kind of partner</dt>
          <dd className="font-medium text-ink-900">
            {PARTNER_TYPE_LABELS[application.partner_type] ?? application.partner_type}
          </dd>
        </div>
        <div>
          <dt className="text-ink-600">Referrals expected a month</dt>
          <dd className="font-medium text-ink-900 tabular-nums">
            {application.expected_referrals}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-ink-600">Website</dt>
          <dd className="font-medium break-all text-ink-900">
            {application.website ? (
              <a
                href={application.website}
                target="_blank"
                rel="noreferrer noopener"
                className="text-azure-700 hover:underline"
              >
                {application.website.replace(/^https?:\/\//, '')}
              </a>
            ) : (
              'None given'
            )}
          </dd>
        </div>
        <div>
          <dt className="text-ink-600">Account</dt>
          <dd className="font-medium text-ink-900">
            {application.has_account ? 'Has an account' : 'No account yet'}
          </dd>
        </div>
        <div className="col-span-2 lg:col-span-4">
          <dt className="text-ink-600">Message</dt>
          <dd className="break-words whitespace-pre-line text-ink-900">
            {application.message ?? 'No message.'}
          </dd>
        </div>
      </dl>

      <p className="text-sm text-ink-600">
        Applied <time dateTime={application.created_at}>{formatDay(application.created_at)}</time>
        {application.reviewed_at ? (
          <>
            {' · '}
            {application.status === 'approved' ? 'approved' : 'rejected'}{' '}
            <time dateTime={application.reviewed_at}>{formatDay(application.reviewed_at)}</time>
            {application.reviewer_email ? ` by ${application.reviewer_email}` : ''}
          </>
        ) : null}
      </p>

      {application.status === 'approved' ? (
        <p className="text-sm text-ink-800">
          {application.referral_code
            ? `Partner with the referral code ${application.referral_code}.`
            : 'Becomes a partner once they create their account with this address and confirm it.'}
        </p>
      ) : null}
      {application.status === 'rejected' && application.decision_reason ? (
        <p className="text-sm break-words whitespace-pre-line text-ink-800">
          <span className="font-semibold">Reason sent: </span>
          {application.decision_reason}
        </p>
      ) : null}

      {error ? <Alert tone="error">{error}</Alert> : null}

      {application.status === 'pending' ? (
        <div className="flex flex-wrap gap-3">
          <ConfirmDialog
            trigger={<Button>Approve…</Button>}
            title={`Approve ${application.company}?`}
            description={
              application.has_account ? (
                <p>
                  {application.full_name}’s account becomes a partner account with a referral code,
                  and they are emailed a welcome with the code and a link to sign in.
                </p>
              ) : (
                <p>
                  {application.full_name} has no account yet. They are emailed a welcome and become
                  a partner as soon as they create an account with {application.email} and confirm
                  it.
                </p>
              )
            }
            confirmLabel="Approve and email"
            busyLabel="Approving…"
            onConfirm={approve}
          />
          <RejectApplicationDialog company={application.company} onReject={reject} />
        </div>
      ) : null}
    </li>
  );
}
