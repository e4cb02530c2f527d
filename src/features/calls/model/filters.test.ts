import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_FILTERS,
  addDays,
  callFiltersSearch,
  callsQueryArgs,
  clearedFilters,
  describePeriod,
  hasNarrowingFilters,
  normalizeNumber,
  parseCallFilters,
  periodRange,
  toRpcFilters,
  withCallFilters,
  type CallFilters,
} from './filters';

const parse = (query: string) => parseCallFilters(new URLSearchParams(query));

// Local days are the browser's: pin a zone with a daylight-saving change.
beforeEach(() => {
  vi.stubEnv('TZ', 'America/New_York');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('parseCallFilters', () => {
  it('gives the defaults for an empty query', () => {
    expect(parse('')).toEqual(DEFAULT_FILTERS);
  });

  it('reads every filter', () => {
    expect(
      parse(
        'period=7d&q=refund%20policy&outcome=missed,resolved&sentiment=negative&direction=inbound&number=%2B14155550100&sort=longest',
      ),
    ).toEqual({
      period: { kind: 'preset', preset: '7d' },
      q: 'refund policy',
      outcome: ['resolved', 'missed'],
      sentiment: ['negative'],
      direction: 'inbound',
      number: '+14155550100',
      sort: 'longest',
    } satisfies CallFilters);
  });

  it('quietly drops what it does not know', () => {
    expect(
      parse(
        'period=12d&outcome=resolved,lost,resolved&sentiment=angry&direction=sideways&number=call-me&sort=best',
      ),
    ).toEqual({ ...DEFAULT_FILTERS, outcome: ['resolved'] });
  });

  it('tidies the search text and caps its length', () => {
    expect(parse('q=%20%20late%20%20%20invoice%20').q).toBe('late invoice');
    expect(parse(`q=${'a'.repeat(500)}`).q).toHaveLength(200);
  });

  it('takes a custom period of real days in order, both days included', () => {
    expect(parse('from=2026-02-01&to=2026-02-28').period).toEqual({
      kind: 'range',
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(parse('from=2026-03-05&to=2026-03-05&period=7d').period.kind).toBe('range');
  });

  it.each([
    'from=2026-02-01',
    'from=2026-02-10&to=2026-02-01',
    'from=2026-02-30&to=2026-03-02',
    'from=2026-2-1&to=2026-2-5',
    'from=2024-01-01&to=2025-01-02',
    'from=yesterday&to=today',
  ])('falls back to the preset for the bad custom period %s', (query) => {
    expect(parse(`${query}&period=90d`).period).toEqual({ kind: 'preset', preset: '90d' });
  });

  it('allows a custom period of a leap year, but not an hour more', () => {
    expect(parse('from=2024-01-01&to=2024-12-31').period.kind).toBe('range');
    expect(parse('from=2025-03-10&to=2026-03-10').period.kind).toBe('range');
    // 366 days over two autumn clock changes and one spring change: an hour
    // longer than the 366 days the database allows.
    expect(parse('from=2025-11-01&to=2026-11-01').period.kind).toBe('preset');
    expect(parse('from=2025-11-02&to=2026-11-01').period.kind).toBe('range');
  });
});

describe('normalizeNumber', () => {
  it('keeps the digits and the plus of a typed phone number', () => {
    expect(normalizeNumber('+1 (415) 555-0100')).toBe('+14155550100');
    expect(normalizeNumber('44 20 7183 8750')).toBe('+442071838750');
    // Only whole numbers: the database's filter refuses anything else.
    expect(normalizeNumber('0100')).toBe('');
    expect(normalizeNumber('+0123456789')).toBe('');
    expect(normalizeNumber('ext. 12')).toBe('');
    expect(normalizeNumber('+1234567890123456')).toBe('');
  });
});

describe('withCallFilters', () => {
  it('writes nothing for the defaults, so /dashboard stays plain', () => {
    expect(callFiltersSearch(DEFAULT_FILTERS)).toBe('');
  });

  it('round-trips every filter through the URL', () => {
    const filters: CallFilters = {
      period: { kind: 'range', from: '2026-10-01', to: '2026-10-31' },
      q: 'cancel & refund',
      outcome: ['escalated', 'voicemail'],
      sentiment: ['neutral', 'negative'],
      direction: 'outbound',
      number: '+442071838750',
      sort: 'oldest',
    };
    const search = callFiltersSearch(filters);
    expect(search).toBe(
      '?from=2026-10-01&to=2026-10-31&q=cancel+%26+refund&outcome=escalated%2Cvoicemail&sentiment=neutral%2Cnegative&direction=outbound&number=%2B442071838750&sort=oldest',
    );
    expect(parseCallFilters(new URLSearchParams(search))).toEqual(filters);
  });

  it('keeps other parameters and replaces the old filters', () => {
    const params = new URLSearchParams('after=abc&period=7d&from=2026-01-01&to=2026-01-02&q=x');
    const next = withCallFilters(params, { ...DEFAULT_FILTERS, sort: 'shortest' });
    expect(next.toString()).toBe('after=abc&sort=shortest');
    // The original is left alone.
    expect(params.get('q')).toBe('x');
  });
});

describe('narrowing and clearing', () => {
  it('knows when the calls are narrowed beyond the period', () => {
    expect(hasNarrowingFilters(parse('period=7d&sort=oldest'))).toBe(false);
    for (const query of [
      'q=x',
      'outcome=missed',
      'sentiment=neutral',
      'direction=inbound',
      'number=14155550100',
    ]) {
      expect(hasNarrowingFilters(parse(query))).toBe(true);
    }
  });

  it('clears the filters but keeps the period and sort', () => {
    const filters = parse('period=90d&q=x&outcome=missed&direction=inbound&sort=longest');
    expect(callFiltersSearch(clearedFilters(filters))).toBe('?period=90d&sort=longest');
  });
});

describe('periodRange', () => {
  it('makes a preset today and the days before it, local midnight to local midnight', () => {
    const now = new Date('2026-11-24T15:30:00-05:00');
    const range = periodRange({ kind: 'preset', preset: '7d' }, now);
    expect(range).toMatchObject({ fromDay: '2026-11-18', toDay: '2026-11-24', days: 7 });
    expect(range.from.toISOString()).toBe('2026-11-18T05:00:00.000Z');
    expect(range.to.toISOString()).toBe('2026-11-25T05:00:00.000Z');
  });

  it('uses the local day, not the UTC one, late in the evening', () => {
    // 22:00 in New York is already tomorrow in UTC.
    const range = periodRange({ kind: 'preset', preset: '30d' }, new Date('2026-11-25T03:00:00Z'));
    expect(range.toDay).toBe('2026-11-24');
    expect(range.fromDay).toBe('2026-10-26');
    expect(range.days).toBe(30);
  });

  it('spans a daylight-saving change with the right offsets on each side', () => {
    const range = periodRange({ kind: 'range', from: '2026-03-07', to: '2026-03-08' });
    expect(range.days).toBe(2);
    expect(range.from.toISOString()).toBe('2026-03-07T05:00:00.000Z');
    // Clocks went forward on the 8th: that day lasts 23 hours.
    expect(range.to.toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });

  it('holds still all day, so queries keyed by it do too', () => {
    const morning = periodRange({ kind: 'preset', preset: '90d' }, new Date(2026, 10, 24, 0, 1));
    const night = periodRange({ kind: 'preset', preset: '90d' }, new Date(2026, 10, 24, 23, 59));
    expect(morning).toEqual(night);
    expect(morning.days).toBe(90);
  });
});

describe('the RPC arguments', () => {
  it('carry only the filters that are set', () => {
    expect(toRpcFilters(DEFAULT_FILTERS)).toEqual({});
    expect(
      toRpcFilters(parse('q=late&outcome=missed&direction=outbound&number=%2B14155550100')),
    ).toEqual({
      q: 'late',
      outcome: ['missed'],
      direction: 'outbound',
      number: '+14155550100',
    });
  });

  it('name the workspace and the period as instants', () => {
    const args = callsQueryArgs('ws-1', parse('from=2026-11-01&to=2026-11-30&sentiment=positive'));
    expect(args).toEqual({
      p_workspace_id: 'ws-1',
      p_from: '2026-11-01T04:00:00.000Z',
      p_to: '2026-12-01T05:00:00.000Z',
      p_filters: { sentiment: ['positive'] },
    });
  });
});

describe('describing periods', () => {
  it('reads naturally after "Calls in"', () => {
    expect(describePeriod({ kind: 'preset', preset: '7d' })).toBe('the last 7 days');
    expect(describePeriod({ kind: 'range', from: '2026-11-01', to: '2026-11-15' })).toBe(
      'Nov 1 – Nov 15, 2026',
    );
    expect(describePeriod({ kind: 'range', from: '2026-11-03', to: '2026-11-03' })).toBe(
      'Nov 3, 2026',
    );
  });

  it('moves days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });
});
