import { Link } from 'react-router';
import { adminEmailPath } from '@/config/paths';
import { formatEmailTime, templateLabel, type ListedEmail } from '../model/email-log';
import { EmailStateBadge } from './email-state-badge';

const HEADERS = ['Queued', 'To', 'Subject', 'State', 'Delivery'];

/**
 * The messages as a table from 1024 px, as cards below. The subject links to
 * the preview, stretched over the whole row.
 */
export function EmailTable({ rows, search }: { rows: ListedEmail[]; search: string }) {
  return (
    <>
      <table className="hidden w-full table-fixed text-left text-sm lg:table">
        <caption className="sr-only">Messages, newest first</caption>
        <colgroup>
          <col className="w-32" />
          <col className="w-52" />
          <col />
          <col className="w-32" />
          <col className="w-52" />
        </colgroup>
        <thead className="border-b border-sand-200 bg-sand-50 text-xs font-semibold tracking-wide text-ink-600 uppercase">
          <tr>
            {HEADERS.map((header) => (
              <th key={header} scope="col" className="px-3 py-3">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-sand-200">
          {rows.map((row) => (
            <tr key={row.id} className="relative align-top transition-colors hover:bg-sand-50">
              <td className="px-3 py-3 text-ink-700">
                <time dateTime={row.created_at}>{formatEmailTime(row.created_at)}</time>
              </td>
              <td className="px-3 py-3 break-all text-ink-900">{row.recipient}</td>
              <td className="px-3 py-3">
                <Link
                  to={adminEmailPath(row.id, search)}
                  className="font-semibold break-words text-azure-700 after:absolute after:inset-0 hover:underline"
                >
                  {subjectOf(row)}
                </Link>
                <span className="block text-ink-600">
                  {templateLabel(row.template)}
                  {row.resent_from ? ' · resent copy' : ''}
                </span>
              </td>
              <td className="px-3 py-3">
                <EmailStateBadge state={row.status} />
                <span className="mt-1 block text-ink-600">{attemptsOf(row)}</span>
              </td>
              <td className="px-3 py-3 break-words">
                {row.status === 'pending' ? (
                  <span className="block text-ink-700">Next {nextAttempt(row)}</span>
                ) : null}
                {row.last_error ? (
                  <span className="line-clamp-2 text-danger-800">{row.last_error}</span>
                ) : row.status === 'pending' ? null : (
                  <span className="text-ink-600">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul aria-label="Messages, newest first" className="divide-y divide-sand-200 lg:hidden">
        {rows.map((row) => (
          <li key={row.id} className="relative grid gap-1 px-4 py-3 hover:bg-sand-50">
            <div className="flex items-start justify-between gap-3">
              <Link
                to={adminEmailPath(row.id, search)}
                className="min-w-0 font-semibold break-words text-azure-700 after:absolute after:inset-0 hover:underline"
              >
                {subjectOf(row)}
              </Link>
              <EmailStateBadge state={row.status} />
            </div>
            <p className="text-sm break-all text-ink-800">To {row.recipient}</p>
            <p className="text-sm text-ink-600">
              <time dateTime={row.created_at}>{formatEmailTime(row.created_at)}</time>
              {' · '}
              {templateLabel(row.template)}
              {row.resent_from ? ' · resent copy' : ''}
              {' · '}
              {attemptsOf(row)}
              {row.status === 'pending' ? ` · next ${nextAttempt(row)}` : ''}
            </p>
            {row.last_error ? (
              <p className="line-clamp-2 text-sm break-words text-danger-800">{row.last_error}</p>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

function subjectOf(row: ListedEmail): string {
  return row.subject ?? (row.channel === 'sms' ? 'Text message' : '(no subject)');
}

function attemptsOf(row: ListedEmail): string {
  return row.attempts === 1 ? '1 attempt' : `${row.attempts} attempts`;
}

function nextAttempt(row: ListedEmail): string {
  return Date.parse(row.next_attempt_at) <= Date.now()
    ? 'now'
    : formatEmailTime(row.next_attempt_at);
}
