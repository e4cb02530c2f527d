import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { emailLogQuery, emailTemplatesQuery } from '../api/email-log';
import { EMAIL_CHANNELS, EMAIL_STATES, parseEmailFilters, templateLabel } from '../model/email-log';
import { EmailTable } from './email-table';

/** Every message the product queued, newest first, filtered in the URL. */
export function EmailLog() {
  const [params, setParams] = useSearchParams();
  const filters = parseEmailFilters(params);
  const log = useInfiniteQuery(emailLogQuery(filters));
  const templates = useQuery(emailTemplatesQuery());
  const [recipient, setRecipient] = useState(filters.recipient);

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const applyRecipient = (event: FormEvent) => {
    event.preventDefault();
    setFilter('to', recipient.trim());
  };

  const emails = log.data?.pages.flatMap((page) => page.emails) ?? [];
  const kinds = [
    ...new Set([...(templates.data ?? []), ...(filters.template ? [filters.template] : [])]),
  ];
  const search = params.toString() ? `?${params.toString()}` : '';

  return (
    <div className="grid gap-6">
      <form
        onSubmit={applyRecipient}
        aria-label="Filter the email log"
        className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1.4fr_1.6fr_auto] lg:items-end"
      >
        <Field id="email-state" label="State">
          <Select
            id="email-state"
            value={filters.status ?? ''}
            onChange={(event) => setFilter('state', event.target.value)}
          >
            <option value="">Any state</option>
            {Object.entries(EMAIL_STATES).map(([state, label]) => (
              <option key={state} value={state}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="email-channel" label="Channel">
          <Select
            id="email-channel"
            value={filters.channel ?? ''}
            onChange={(event) => setFilter('channel', event.target.value)}
          >
            <option value="">Any channel</option>
            {Object.entries(EMAIL_CHANNELS).map(([channel, label]) => (
              <option key={channel} value={channel}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="email-kind" label="Kind">
          <Select
            id="email-kind"
            value={filters.template ?? ''}
            onChange={(event) => setFilter('kind', event.target.value)}
          >
            <option value="">Every kind</option>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {templateLabel(kind)}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="email-recipient" label="Recipient contains">
          <Input
            id="email-recipient"
            type="search"
            value={recipient}
            onChange={(event) => setRecipient(event.target.value)}
            maxLength={320}
            autoComplete="off"
          />
        </Field>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>

      {log.isPending ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading the email log…</span>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : log.isError ? (
        <QueryError
          what="the email log"
          onRetry={() => void log.refetch()}
          isRetrying={log.isFetching}
        />
      ) : emails.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
          No messages match these filters.
        </p>
      ) : (
        <>
          <div className="overflow-hidden rounded-2xl border border-sand-200 bg-white">
            <EmailTable rows={emails} search={search} />
          </div>
          {log.hasNextPage ? (
            <div>
              <Button
                variant="secondary"
                onClick={() => void log.fetchNextPage()}
                disabled={log.isFetchingNextPage}
                aria-busy={log.isFetchingNextPage || undefined}
              >
                {log.isFetchingNextPage ? 'Loading...' : 'Show older messages'}
              </Button>
            </div>
          ) : (
            <p className="text-sm text-ink-600">That is the oldest message.</p>
          )}
        </>
      )}
    </div>
  );
}
