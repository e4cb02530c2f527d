import { describe, expect, it } from 'vitest';
import {
  afterFilter,
  centsToAmount,
  ilikeValue,
  parseAmountToCents,
  parseLeadCursor,
  parseLeadFilters,
  searchFilter,
  withLeadCursor,
  withLeadFilters,
} from './leads';
import { csvCell } from './leads-csv';
import { leadChanges, leadFormSchema } from './leads-form';

describe('lead filters in the URL', () => {
  it('round-trips statuses, owner, partner and search, leaving defaults out', () => {
    const filters = {
      statuses: ['won', 'new'] as const,
      owner: 'me' as const,
      isPartnerOnly: true,
      search: 'acme',
    };
    const params = withLeadFilters(new URLSearchParams('view=board'), {
      ...filters,
      statuses: [...filters.statuses],
    });
    expect(params.toString()).toBe('view=board&status=new&status=won&owner=me&partner=1&q=acme');
    expect(parseLeadFilters(params)).toEqual({
      statuses: ['new', 'won'],
      owner: 'me',
      isPartnerOnly: true,
      search: 'acme',
    });
  });

  it('ignores values it does not know', () => {
    expect(parseLeadFilters(new URLSearchParams('status=gone&owner=boss&partner=yes'))).toEqual({
      statuses: [],
      owner: 'anyone',
      isPartnerOnly: false,
      search: '',
    });
  });
});

describe('search', () => {
  it('escapes LIKE wildcards and quotes the value so , ( ) stay inside it', () => {
    expect(ilikeValue('50%_off')).toBe('"*50\\\\%\\\\_off*"');
    expect(ilikeValue('a,b(c)')).toBe('"*a,b(c)*"');
    expect(ilikeValue('say "hi"')).toBe('"*say \\"hi\\"*"');
    expect(ilikeValue('a*b')).toBe('"*ab*"');
  });

  it('looks in company, name and email, and not at all for blanks', () => {
    expect(searchFilter('  ')).toBeNull();
    expect(searchFilter('acme')).toBe(
      'company.ilike."*acme*",full_name.ilike."*acme*",email.ilike."*acme*"',
    );
  });
});

describe('keyset cursor', () => {
  const cursor = {
    createdAt: '2026-11-27T02:14:08.123+00:00',
    id: '0b4f7c4e-7c1d-4d0c-9a53-1f6f0c3c2a10',
  };

  it('round-trips through after= and refuses anything else', () => {
    const params = withLeadCursor(new URLSearchParams('q=x'), cursor);
    expect(parseLeadCursor(params)).toEqual(cursor);
    expect(parseLeadCursor(new URLSearchParams('after=yesterday~1'))).toBeNull();
  });

  it('starts after the row, newest first, the id breaking ties', () => {
    expect(afterFilter(cursor)).toBe(
      `created_at.lt."${cursor.createdAt}",and(created_at.eq."${cursor.createdAt}",id.lt.${cursor.id})`,
    );
  });
});

describe('amounts', () => {
  it('reads a typed amount as cents', () => {
    expect(parseAmountToCents('12,500.5')).toBe(1_250_050);
    expect(parseAmountToCents('99')).toBe(9900);
    expect(parseAmountToCents('1.234')).toBeNull();
    expect(parseAmountToCents('-5')).toBeNull();
    expect(centsToAmount(1_250_050)).toBe('12500.50');
    expect(centsToAmount(9900)).toBe('99');
  });

  it('needs a value to mark a lead won, and sends only what changed', () => {
    const lead = {
      status: 'new' as const,
      owner_id: null,
      deal_value_cents: null,
      currency: 'USD',
    };
    const won = { status: 'won' as const, ownerId: '', amount: '', currency: 'USD' as const };
    expect(leadFormSchema.safeParse(won).success).toBe(false);
    expect(leadFormSchema.safeParse({ ...won, amount: '12,000' }).success).toBe(true);
    expect(leadChanges(lead, { ...won, amount: '12,000', currency: 'EUR' })).toEqual({
      status: 'won',
      deal_value_cents: 1_200_000,
      currency: 'EUR',
    });
  });
});

describe('CSV export', () => {
  it('quotes what needs it and defuses spreadsheet formulas from the public form', () => {
    expect(csvCell('Acme, Inc.')).toBe('"Acme, Inc."');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell(['Zendesk', 'HubSpot'])).toBe('Zendesk; HubSpot');
    expect(csvCell(null)).toBe('');
    expect(csvCell(1250050)).toBe('1250050');
  });
});
