import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { auditLogQuery } from '../api/audit-log';
import {
  AUDIT_ACTIONS,
  AUDITED_TABLES,
  changedFields,
  parseAuditFilters,
  type AuditEntry,
} from '../model/audit-log';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** Who changed what, when and from where: filterable, newest first, read-only for everyone. */
export function AuditLog() {
  const [params, setParams] = useSearchParams();
  const filters = parseAuditFilters(params);
  const log = useInfiniteQuery(auditLogQuery(filters));
  const [actor, setActor] = useState(filters.actor);
  const [target, setTarget] = useState(filters.target);

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const applyText = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams(params);
    for (const [name, value] of [
      ['actor', actor.trim()],
      ['target', target.trim()],
    ] as const) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setParams(next, { replace: true });
  };

  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <div className="grid gap-6">
      <form
        onSubmit={applyText}
        aria-label="Filter the audit log"
        className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1.3fr_1.3fr_auto] lg:items-end"
      >
        <Field id="audit-table" label="Records">
          <Select
            id="audit-table"
            value={filters.table ?? ''}
            onChange={(event) => setFilter('table', event.target.value)}
          >
            <option value="">All records</option>
            {Object.entries(AUDITED_TABLES).map(([table, label]) => (
              <option key={table} value={table}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="audit-action" label="Action">
          <Select
            id="audit-action"
            value={filters.action ?? ''}
            onChange={(event) => setFilter('action', event.target.value)}
          >
            <option value="">Any action</option>
            {Object.entries(AUDIT_ACTIONS).map(([action, label]) => (
              <option key={action} value={action}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="audit-actor" label="Admin’s email contains">
          <Input
            id="audit-actor"
            value={actor}
            onChange={(event) => setActor(event.target.value)}
            maxLength={254}
            autoComplete="off"
          />
        </Field>
        <Field id="audit-target" label="Record id">
          <Input
            id="audit-target"
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            maxLength={100}
            autoComplete="off"
          />
        </Field>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>

      {log.isPending ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading the audit log…</span>
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : log.isError ? (
        <QueryError
          what="the audit log"
          onRetry={() => void log.refetch()}
          isRetrying={log.isFetching}
        />
      ) : entries.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
          No admin changes match these filters.
        </p>
      ) : (
        <>
          <ol aria-label="Audit log entries" className="grid gap-3">
            {entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </ol>
          {log.hasNextPage ? (
            <div>
              <Button
                variant="secondary"
                onClick={() => void log.fetchNextPage()}
                disabled={log.isFetchingNextPage}
                aria-busy={log.isFetchingNextPage || undefined}
              >
                {log.isFetchingNextPage ? 'Loading...' : 'Show older entries'}
              </Button>
            </div>
          ) : (
            <p className="text-sm text-ink-600">That is the oldest entry.</p>
          )}
        </>
      )}
    </div>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const fields = changedFields(entry);
  const table =
    AUDITED_TABLES[entry.target_table as keyof typeof AUDITED_TABLES] ?? entry.target_table;
  return (
    <li className="rounded-xl border border-sand-200 bg-white p-4">
      <p className="font-semibold break-words text-ink-900">
        {entry.actor_email ?? 'A former admin'} · {AUDIT_ACTIONS[entry.action].toLowerCase()}{' '}
        {table.toLowerCase()}
      </p>
      <p className="text-sm break-words text-ink-600">
        <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time>
        {entry.client_ip ? ` · from ${entry.client_ip}` : ''}
        {entry.target_id ? ` · record ${entry.target_id}` : ''}
      </p>
      {fields.length > 0 ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-sm font-medium text-azure-700">
            {fields.length === 1 ? '1 field' : `${fields.length} fields`}
          </summary>
          <dl className="mt-2 grid gap-2 text-sm">
            {fields.map((field) => (
              <div key={field.field} className="grid gap-0.5 sm:grid-cols-[12rem_1fr]">
                <dt className="font-medium text-ink-800">{field.field}</dt>
                <dd className="break-words text-ink-700">
                  {field.before !== null && field.after !== null
                    ? `${field.before} → ${field.after}`
                    : (field.after ?? field.before)}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </li>
  );
}
