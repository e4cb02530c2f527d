import { describe, expect, it } from 'vitest';
import type { CommissionRow, PayoutRow } from './commissions';
import { csvCell, statementFileName, statementTotals, toStatementCsv } from './statement-csv';

const commission = (overrides: Partial<CommissionRow>): CommissionRow => ({
  id: 'c1',
  company: 'Northwind',
  deal_value_cents: 1_000_000,
  currency: 'USD',
  rate: 0.2,
  amount_cents: 200_000,
  status: 'pending',
  won_at: '2026-11-03T10:00:00+00:00',
  period: '2026-11-01',
  decline_reason: null,
  paid_at: null,
  created_at: '2026-11-03T10:00:00+00:00',
  payout: null,
  ...overrides,
});

const payout: PayoutRow = {
  id: 'p1',
  currency: 'USD',
  amount_cents: 150_050,
  commission_count: 1,
  status: 'paid',
  reference: 'WIRE-2026-11-0042',
  paid_on: '2026-11-20',
  created_at: '2026-11-18T09:00:00+00:00',
};

const commissions = [
  commission({}),
  commission({
    id: 'c2',
    company: '=HYPERLINK("http://evil")',
    status: 'declined',
    amount_cents: 5_000,
    decline_reason: 'The customer cancelled, within 30 days.',
  }),
  commission({
    id: 'c3',
    company: 'Contoso, Ltd',
    status: 'paid',
    amount_cents: 150_050,
    paid_at: '2026-11-20T12:00:00+00:00',
    payout: { reference: 'WIRE-2026-11-0042', paid_on: '2026-11-20', status: 'paid' },
  }),
  commission({ id: 'c4', currency: 'EUR', status: 'approved', amount_cents: 12_345 }),
];

const csv = toStatementCsv({
  partner: { company: 'Brightpath Advisors', referralCode: 'BRIGHT24' },
  month: '2026-11',
  commissions,
  payouts: [payout],
  generatedAt: new Date('2026-12-01T08:00:00Z'),
});
const lines = csv.split('\r\n');

describe('csvCell', () => {
  it('neutralises formulas and quotes what needs quoting', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+33 1 23')).toBe("'+33 1 23");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(3)).toBe('3');
  });
});

describe('toStatementCsv', () => {
  it('starts with who and which month', () => {
    expect(lines.slice(0, 5)).toEqual([
      'Cervana partner statement',
      'Partner,Brightpath Advisors',
      'Referral code,BRIGHT24',
      'Period,"2026-11 (November 2026, UTC)"',
      'Generated,2026-12-01T08:00:00.000Z',
    ]);
  });

  it('lists every commission of the period with amounts as decimals', () => {
    const start = lines.indexOf('Commissions on deals won in November 2026');
    expect(lines[start + 1]).toBe(
      'Won date,Company,Deal value,Rate,Commission,Currency,State,Decline reason,Payout reference,Paid date',
    );
    expect(lines.slice(start + 2, start + 6)).toEqual([
      '2026-11-03,Northwind,10000.00,20%,2000.00,USD,Pending,,,',
      `2026-11-03,"'=HYPERLINK(""http://evil"")",10000.00,20%,50.00,USD,Declined,"The customer cancelled, within 30 days.",,`,
      '2026-11-03,"Contoso, Ltd",10000.00,20%,1500.50,USD,Paid,,WIRE-2026-11-0042,2026-11-20',
      '2026-11-03,Northwind,10000.00,20%,123.45,EUR,Approved,,,',
    ]);
  });

  it('lists the payouts paid in the month', () => {
    const start = lines.indexOf('Payouts paid in November 2026');
    expect(lines.slice(start + 1, start + 3)).toEqual([
      'Paid date,Reference,Amount,Currency,Commissions',
      '2026-11-20,WIRE-2026-11-0042,1500.50,USD,1',
    ]);
  });

  it('totals per currency, declined apart from what was won', () => {
    const start = lines.indexOf('Totals');
    expect(lines.slice(start + 1)).toEqual([
      'Currency,Commissions won,Pending,Approved,Paid,Declined (not payable),Paid out this month',
      'EUR,123.45,0.00,123.45,0.00,0.00,0.00',
      'USD,3500.50,2000.00,0.00,1500.50,50.00,1500.50',
      '',
    ]);
  });

  it('says so when a month has no commissions or no payouts', () => {
    const empty = toStatementCsv({
      partner: { company: 'B', referralCode: 'B1' },
      month: '2026-10',
      commissions: [],
      payouts: [],
      generatedAt: new Date('2026-12-01T08:00:00Z'),
    });
    expect(empty).toContain('No commissions on deals won this month.');
    expect(empty).toContain('No payouts paid this month.');
    expect(statementTotals([], [])).toEqual([]);
  });

  it('names the file after the month', () => {
    expect(statementFileName('2026-11')).toBe('Cervana partner statement 2026-11.csv');
  });
});
