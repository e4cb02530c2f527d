import { Link } from 'react-router';
import { adminLeadPath } from '@/config/paths';
import { formatDealValue, formatLeadTime, type LeadListRow } from '../model/leads';
import { LeadStatusBadge } from './lead-status-badge';

const HEADERS = ['Company', 'Contact', 'Status', 'Owner', 'Deal value', 'Partner', 'Received'];

/**
 * The leads as a table from 1024 px, as a list of cards below. A row opens
 * its lead: the company is the link, stretched over the whole row.
 */
export function LeadTable({ rows, search }: { rows: LeadListRow[]; search: string }) {
  return (
    <>
      <table className="hidden w-full text-left text-sm lg:table">
        <caption className="sr-only">Leads, newest first</caption>
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
              <td className="px-4 py-3">
                <Link
                  to={adminLeadPath(row.id, search)}
                  className="font-semibold text-azure-700 after:absolute after:inset-0 hover:underline"
                >
                  {row.company}
                </Link>
              </td>
              <td className="px-4 py-3">
                <span className="block text-ink-900">{row.full_name}</span>
                <span className="block text-ink-600">{row.email}</span>
              </td>
              <td className="px-4 py-3">
                <LeadStatusBadge status={row.status} />
              </td>
              <td className="px-4 py-3 text-ink-700">{ownerName(row)}</td>
              <td className="px-4 py-3 whitespace-nowrap text-ink-900 tabular-nums">
                {formatDealValue(row.deal_value_cents, row.currency)}
              </td>
              <td className="px-4 py-3 text-ink-700">{row.partner ?? '—'}</td>
              <td className="px-4 py-3 whitespace-nowrap text-ink-700">
                <time dateTime={row.created_at}>{formatLeadTime(row.created_at)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul aria-label="Leads, newest first" className="divide-y divide-sand-200 lg:hidden">
        {rows.map((row) => (
          <li key={row.id} className="relative grid gap-1 px-4 py-3 hover:bg-sand-50">
            <div className="flex items-start justify-between gap-3">
              <Link
                to={adminLeadPath(row.id, search)}
                className="font-semibold text-azure-700 after:absolute after:inset-0 hover:underline"
              >
                {row.company}
              </Link>
              <LeadStatusBadge status={row.status} />
            </div>
            <p className="text-sm break-all text-ink-700">
              {row.full_name} · {row.email}
            </p>
            <p className="text-sm text-ink-600">
              <time dateTime={row.created_at}>{formatLeadTime(row.created_at)}</time>
              {' · '}
              {ownerName(row)}
              {row.deal_value_cents !== null
                ? ` · ${formatDealValue(row.deal_value_cents, row.currency)}`
                : ''}
              {row.partner ? ` · via ${row.partner}` : ''}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}

function ownerName(row: LeadListRow): string {
  if (!row.owner_id) return 'Unassigned';
  return row.owner ?? 'An admin';
}
