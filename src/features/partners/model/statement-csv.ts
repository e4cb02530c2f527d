import {
  COMMISSION_STATE_LABELS,
  centsToDecimal,
  formatCommissionRate,
  formatMonth,
  utcDay,
  type CommissionRow,
  type PayoutRow,
} from './commissions';

/**
 * A partner's monthly statement as CSV, written in the browser from the rows
 * row-level security lets them read: who and which month, one line per
 * commission won in the month (its period, whatever its state now), one line
 * per payout paid in the month, and totals per currency. Amounts are decimals
 * (12.34), as spreadsheets and accounting tools read them.
 */

export interface StatementInput {
  partner: { company: string; referralCode: string };
  /** 'YYYY-MM'. */
  month: string;
  commissions: CommissionRow[];
  /** Payouts paid in the month. */
  payouts: PayoutRow[];
  /** When the statement was made, for its header. */
  generatedAt: Date;
}

/**
 * One cell. Company names and reasons are typed by people, so a cell that a
 * spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, CR) gets a
 * leading apostrophe; a cell with a quote, comma or line break is quoted.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const line = (cells: (string | number | null | undefined)[]) => cells.map(csvCell).join(',');

export const COMMISSION_COLUMNS = [
  'Won date',
  'Company',
  'Deal value',
  'Rate',
  'Commission',
  'Currency',
  'State',
  'Decline reason',
  'Payout reference',
  'Paid date',
] as const;

export const PAYOUT_COLUMNS = [
  'Paid date',
  'Reference',
  'Amount',
  'Currency',
  'Commissions',
] as const;

export const TOTAL_COLUMNS = [
  'Currency',
  'Commissions won',
  'Pending',
  'Approved',
  'Paid',
  'Declined (not payable)',
  'Paid out this month',
] as const;

interface CurrencyTotals {
  won: number;
  pending: number;
  approved: number;
  paid: number;
  declined: number;
  paidOut: number;
}

/** Per currency, alphabetically: the month's commissions by state and its payouts. */
export function statementTotals(
  commissions: CommissionRow[],
  payouts: PayoutRow[],
): [string, CurrencyTotals][] {
  const totals = new Map<string, CurrencyTotals>();
  const of = (currency: string) => {
    let total = totals.get(currency);
    if (!total) {
      total = { won: 0, pending: 0, approved: 0, paid: 0, declined: 0, paidOut: 0 };
      totals.set(currency, total);
    }
    return total;
  };
  for (const commission of commissions) {
    const total = of(commission.currency);
    total[commission.status] += commission.amount_cents;
    if (commission.status !== 'declined') total.won += commission.amount_cents;
  }
  for (const payout of payouts) of(payout.currency).paidOut += payout.amount_cents;
  return [...totals].sort(([a], [b]) => a.localeCompare(b));
}

export function toStatementCsv(input: StatementInput): string {
  const { partner, month, commissions, payouts, generatedAt } = input;
  const lines = [
    line(['Cervana partner statement']),
    line(['Partner', partner.company]),
    line(['Referral code', partner.referralCode]),
    line(['Period', `${month} (${formatMonth(month)}, UTC)`]),
    line(['Generated', generatedAt.toISOString()]),
    '',
    line([`Commissions on deals won in ${formatMonth(month)}`]),
    line([...COMMISSION_COLUMNS]),
    ...commissions.map((commission) =>
      line([
        utcDay(commission.won_at),
        commission.company,
        centsToDecimal(commission.deal_value_cents),
        formatCommissionRate(commission.rate),
        centsToDecimal(commission.amount_cents),
        commission.currency,
        COMMISSION_STATE_LABELS[commission.status],
        commission.decline_reason,
        commission.payout?.reference,
        commission.paid_at ? utcDay(commission.payout?.paid_on ?? commission.paid_at) : null,
      ]),
    ),
    ...(commissions.length === 0 ? [line(['No commissions on deals won this month.'])] : []),
    '',
    line([`Payouts paid in ${formatMonth(month)}`]),
    line([...PAYOUT_COLUMNS]),
    ...payouts.map((payout) =>
      line([
        payout.paid_on,
        payout.reference,
        centsToDecimal(payout.amount_cents),
        payout.currency,
        payout.commission_count,
      ]),
    ),
    ...(payouts.length === 0 ? [line(['No payouts paid this month.'])] : []),
    '',
    line(['Totals']),
    line([...TOTAL_COLUMNS]),
    ...statementTotals(commissions, payouts).map(([currency, total]) =>
      line([
        currency,
        centsToDecimal(total.won),
        centsToDecimal(total.pending),
        centsToDecimal(total.approved),
        centsToDecimal(total.paid),
        centsToDecimal(total.declined),
        centsToDecimal(total.paidOut),
      ]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** 'Cervana partner statement 2026-11.csv'. */
export function statementFileName(month: string): string {
  return `Cervana partner statement ${month}.csv`;
}
