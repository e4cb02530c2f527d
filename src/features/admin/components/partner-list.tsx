import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { partnersQuery } from '../api/partners';
import {
  PARTNER_STATUSES,
  PARTNER_STATUS_LABELS,
  PARTNER_TIER_LABELS,
  formatCommission,
  formatDay,
  type PartnerFilters,
  type PartnerRow,
} from '../model/partners';
import { PartnerStatusBadge } from './partner-badges';
import { PartnerEditDialog } from './partner-edit-dialog';

const HEADERS = ['Company', 'Code', 'Tier', 'Commission', 'Status', 'Visits', 'Leads', 'Sign-ups'];

/** Every partner, newest first, searchable; a table from 1024 px, cards below. */
export function PartnerList({
  filters,
  onFilters,
}: {
  filters: PartnerFilters;
  onFilters: (filters: PartnerFilters) => void;
}) {
  const list = useInfiniteQuery(partnersQuery(filters));
  const [search, setSearch] = useState(filters.search);
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];
  const hasFilters = filters.search !== '' || filters.status !== null;

  const applySearch = (event: FormEvent) => {
    event.preventDefault();
    onFilters({ ...filters, search: search.trim().slice(0, 100) });
  };

  return (
    <div className="grid gap-5">
      <form
        onSubmit={applySearch}
        role="search"
        aria-label="Search partners"
        className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
      >
        <Field id="partner-search" label="Company, code or email contains">
          <Input
            id="partner-search"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            maxLength={100}
            autoComplete="off"
          />
        </Field>
        <Field id="partner-status-filter" label="Status">
          <Select
            id="partner-status-filter"
            value={filters.status ?? ''}
            onChange={(event) =>
              onFilters({
                ...filters,
                status: (event.target.value || null) as PartnerFilters['status'],
              })
            }
          >
            <option value="">Any status</option>
            {PARTNER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {PARTNER_STATUS_LABELS[status]}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>

      {list.isPending ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading partners…</span>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : list.isError ? (
        <QueryError
          what="the partners"
          onRetry={() => void list.refetch()}
          isRetrying={list.isFetching}
        />
      ) : rows.length === 0 ? (
        <div className="grid justify-items-start gap-3 rounded-2xl border border-dashed border-sand-200 bg-white p-6">
          <p className="text-ink-700">
            {hasFilters
              ? 'No partners match this search.'
              : 'No partners yet. Approved applicants appear here.'}
          </p>
          {hasFilters ? (
            <Button
              variant="secondary"
              onClick={() => {
                setSearch('');
                onFilters({ search: '', status: null });
              }}
            >
              Clear the search
            </Button>
          ) : null}
        </div>
      ) : (
        <section
          aria-label="Partners"
          className="overflow-hidden rounded-2xl border border-sand-200 bg-white"
        >
          <table className="hidden w-full text-left text-sm lg:table">
            <caption className="sr-only">Partners, newest first</caption>
            <thead className="border-b border-sand-200 bg-sand-50 text-xs font-semibold tracking-wide text-ink-600 uppercase">
              <tr>
                {HEADERS.map((header) => (
                  <th key={header} scope="col" className="px-4 py-3 whitespace-nowrap">
                    {header}
                  </th>
                ))}
                <th scope="col" className="px-4 py-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-sand-200">
              {rows.map((row) => (
                <tr key={row.id} className="align-top">
                  <td className="max-w-64 px-4 py-3">
                    <span className="block font-semibold break-words text-ink-900">
                      {row.company}
                    </span>
                    <span className="block break-all text-ink-600">
                      {row.email ?? 'No account'}
                    </span>
                  </td>
                  <td className="px-4 py-3 font-mono text-ink-900">{row.referral_code}</td>
                  <td className="px-4 py-3 text-ink-900">{PARTNER_TIER_LABELS[row.tier]}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-ink-900 tabular-nums">
                    {formatCommission(row.commission_rate)}
                  </td>
                  <td className="px-4 py-3">
                    <PartnerStatusBadge status={row.status} />
                  </td>
                  <td className="px-4 py-3 text-ink-900 tabular-nums">{row.clicks}</td>
                  <td className="px-4 py-3 text-ink-900 tabular-nums">{row.leads}</td>
                  <td className="px-4 py-3 text-ink-900 tabular-nums">{row.sign_ups}</td>
                  <td className="px-4 py-3 text-right">
                    <PartnerEditDialog partner={row} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul aria-label="Partners, newest first" className="divide-y divide-sand-200 lg:hidden">
            {rows.map((row) => (
              <PartnerCard key={row.id} partner={row} />
            ))}
          </ul>
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 px-4 py-3">
            <p className="text-sm text-ink-600">
              {rows.length} partner{rows.length === 1 ? '' : 's'} shown
            </p>
            {list.hasNextPage ? (
              <Button
                variant="secondary"
                onClick={() => void list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
                aria-busy={list.isFetchingNextPage || undefined}
              >
                {list.isFetchingNextPage ? 'Loading…' : 'Show more partners'}
              </Button>
            ) : null}
          </div>
        </section>
      )}
    </div>
  );
}

function PartnerCard({ partner }: { partner: PartnerRow }) {
  return (
    <li className="grid gap-2 px-4 py-4">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold break-words text-ink-900">{partner.company}</p>
          <p className="text-sm break-all text-ink-600">{partner.email ?? 'No account'}</p>
        </div>
        <PartnerStatusBadge status={partner.status} />
      </div>
      <p className="text-sm text-ink-800">
        <span className="font-mono">{partner.referral_code}</span> ·{' '}
        {PARTNER_TIER_LABELS[partner.tier]} · {formatCommission(partner.commission_rate)}
      </p>
      <p className="text-sm text-ink-600">
        {partner.clicks} visit{partner.clicks === 1 ? '' : 's'} · {partner.leads} lead
        {partner.leads === 1 ? '' : 's'} · {partner.sign_ups} sign-up
        {partner.sign_ups === 1 ? '' : 's'} · since{' '}
        <time dateTime={partner.created_at}>{formatDay(partner.created_at)}</time>
      </p>
      <div>
        <PartnerEditDialog partner={partner} />
      </div>
    </li>
  );
}
