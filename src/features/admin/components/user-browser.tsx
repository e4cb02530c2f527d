import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { adminUserPath } from '@/config/paths';
import { usersListQuery } from '../api/users';
import {
  MAX_SEARCH_LENGTH,
  USER_ROLES,
  USER_ROLE_LABELS,
  formatUserTime,
  parseUserFilters,
  type UserRole,
  type UserRow,
} from '../model/users';
import { BannedBadge, UserRoleBadge } from './user-role-badge';

/**
 * The accounts, newest first: a search (start of the email, its domain, the
 * name or the company) and a role filter kept in the URL, 50 at a time by key.
 */
export function UserBrowser() {
  const [params, setParams] = useSearchParams();
  const filters = parseUserFilters(params);
  const list = useInfiniteQuery(usersListQuery(filters));
  const [search, setSearch] = useState(filters.search);
  const query = params.toString();
  const listSearch = query ? `?${query}` : '';

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const applySearch = (event: FormEvent) => {
    event.preventDefault();
    setFilter('q', search.trim());
  };

  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];

  return (
    <div className="grid gap-4">
      <form
        role="search"
        aria-label="Find people"
        onSubmit={applySearch}
        className="grid gap-3 rounded-2xl border border-sand-200 bg-white p-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
      >
        <Field id="users-search" label="Search">
          <Input
            id="users-search"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            maxLength={MAX_SEARCH_LENGTH}
            autoComplete="off"
            placeholder="Email, domain, name or company"
          />
        </Field>
        <Field id="users-role" label="Role">
          <Select
            id="users-role"
            value={filters.role ?? ''}
            onChange={(event) => setFilter('role', event.target.value)}
          >
            <option value="">Every role</option>
            {USER_ROLES.map((role) => (
              <option key={role} value={role}>
                {USER_ROLE_LABELS[role]}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      <p className="text-sm text-ink-600">
        The search matches the start of an email address, of its domain (after the @), of a name or
        of a company.
      </p>

      {list.isPending ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading people…</span>
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : list.isError ? (
        <QueryError
          what="the people"
          onRetry={() => void list.refetch()}
          isRetrying={list.isFetching}
        />
      ) : rows.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
          {filters.search || filters.role
            ? 'Nobody matches this search. Try the start of an email address, a name or a company.'
            : 'There are no accounts yet.'}
        </p>
      ) : (
        <>
          <div className="overflow-hidden rounded-2xl border border-sand-200 bg-white">
            <UserTable rows={rows} search={listSearch} />
          </div>
          {list.hasNextPage ? (
            <div>
              <Button
                variant="secondary"
                onClick={() => void list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
                aria-busy={list.isFetchingNextPage || undefined}
              >
                {list.isFetchingNextPage ? 'Loading...' : 'Show more people'}
              </Button>
            </div>
          ) : (
            <p className="text-sm text-ink-600">
              {rows.length === 1 ? 'One person' : `${rows.length} people`}, all shown.
            </p>
          )}
        </>
      )}
    </div>
  );
}

const HEADERS = ['Person', 'Company', 'Role', 'Signed up', 'Last sign-in'];

/** A table from 1024 px, cards below; the person's name opens their page. */
function UserTable({ rows, search }: { rows: UserRow[]; search: string }) {
  return (
    <>
      <table className="hidden w-full text-left text-sm lg:table">
        <caption className="sr-only">People, newest first</caption>
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
              <td className="min-w-[19rem] px-4 py-3">
                <Link
                  to={adminUserPath(row.id, search)}
                  className="font-semibold text-azure-700 after:absolute after:inset-0 hover:underline"
                >
                  {row.full_name ?? 'No name'}
                </Link>
                <span className="block break-words text-ink-600">{row.email ?? 'No email'}</span>
              </td>
              <td className="px-4 py-3 text-ink-700">{row.company ?? '—'}</td>
              <td className="px-4 py-3">
                <span className="flex flex-wrap gap-1.5">
                  <UserRoleBadge role={row.role as UserRole} />
                  <BannedBadge bannedUntil={row.banned_until} />
                </span>
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-ink-700">
                <time dateTime={row.created_at}>{formatUserTime(row.created_at)}</time>
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-ink-700">
                {row.last_sign_in_at ? (
                  <time dateTime={row.last_sign_in_at}>{formatUserTime(row.last_sign_in_at)}</time>
                ) : row.invited_at ? (
                  'Invited, not signed in yet'
                ) : (
                  'Never'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul aria-label="People, newest first" className="divide-y divide-sand-200 lg:hidden">
        {rows.map((row) => (
          <li key={row.id} className="relative grid gap-1 px-4 py-3 hover:bg-sand-50">
            <div className="flex items-start justify-between gap-3">
              <Link
                to={adminUserPath(row.id, search)}
                className="font-semibold text-azure-700 after:absolute after:inset-0 hover:underline"
              >
                {row.full_name ?? 'No name'}
              </Link>
              <span className="flex flex-wrap justify-end gap-1.5">
                <UserRoleBadge role={row.role as UserRole} />
                <BannedBadge bannedUntil={row.banned_until} />
              </span>
            </div>
            <p className="text-sm break-all text-ink-700">{row.email ?? 'No email'}</p>
            <p className="text-sm text-ink-600">
              {row.company ? `${row.company} · ` : ''}
              Signed up <time dateTime={row.created_at}>{formatUserTime(row.created_at)}</time>
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
