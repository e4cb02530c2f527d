import { describe, expect, it } from 'vitest';
import {
  csvFileName,
  customerNumber,
  pageQuery,
  parseCursor,
  toPage,
  withCursor,
  type CallListRow,
} from './call-list';

const ID = '0f8b9d1e-3c2a-4b5d-9e6f-7a8b9c0d1e2f';

const row = (index: number): CallListRow => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  started_at: `2026-11-${String(index).padStart(2, '0')}T10:00:00.123456+00:00`,
  direction: 'inbound',
  from_number: '+14155550100',
  to_number: '+14155550199',
  duration_seconds: 100 + index,
  outcome: 'resolved',
  sentiment: null,
  summary: null,
  is_sample: false,
});

describe('cursors in the URL', () => {
  it('reads a cursor that fits the sort', () => {
    const params = new URLSearchParams({ after: `2026-11-20T10:00:00.5+00:00~${ID}` });
    expect(parseCursor(params, 'newest')).toEqual({
      edge: 'after',
      value: '2026-11-20T10:00:00.5+00:00',
      id: ID,
    });
    expect(parseCursor(new URLSearchParams({ before: `125~${ID}` }), 'longest')).toEqual({
      edge: 'before',
      value: '125',
      id: ID,
    });
  });

  it.each([
    ['after', `125~${ID}`, 'newest'],
    ['after', `2026-11-20T10:00:00Z~${ID}`, 'shortest'],
    ['after', '2026-11-20T10:00:00Z~not-an-id', 'newest'],
    ['before', `2026-11-20T10:00:00Z),or(id.gt.0~${ID}`, 'oldest'],
    ['after', ID, 'newest'],
  ] as const)('starts from the first page for %s=%s sorted %s', (edge, value, sort) => {
    expect(parseCursor(new URLSearchParams({ [edge]: value }), sort)).toBeNull();
  });

  it('round-trips through the URL, replacing the other edge', () => {
    const params = new URLSearchParams({ q: 'late', before: `1~${ID}` });
    const next = withCursor(params, { edge: 'after', value: '2026-11-20T10:00:00Z', id: ID });
    expect(next.get('before')).toBeNull();
    expect(next.get('q')).toBe('late');
    expect(parseCursor(next, 'newest')).toEqual({
      edge: 'after',
      value: '2026-11-20T10:00:00Z',
      id: ID,
    });
    expect(withCursor(next, null).toString()).toBe('q=late');
  });
});

describe('pageQuery', () => {
  it('reads the first page in the sort’s order', () => {
    expect(pageQuery('newest', null)).toEqual({
      column: 'started_at',
      ascending: false,
      after: null,
    });
  });

  it('continues after the cursor’s row, ties broken by id', () => {
    const cursor = { edge: 'after', value: '2026-11-20T10:00:00+00:00', id: ID } as const;
    expect(pageQuery('newest', cursor)).toEqual({
      column: 'started_at',
      ascending: false,
      after: `started_at.lt."2026-11-20T10:00:00+00:00",and(started_at.eq."2026-11-20T10:00:00+00:00",id.lt.${ID})`,
    });
    expect(pageQuery('shortest', { edge: 'after', value: '90', id: ID }).after).toBe(
      `duration_seconds.gt."90",and(duration_seconds.eq."90",id.gt.${ID})`,
    );
  });

  it('reads backwards for the page before the cursor', () => {
    expect(pageQuery('newest', { edge: 'before', value: '2026-11-20T10:00:00Z', id: ID })).toEqual({
      column: 'started_at',
      ascending: true,
      after: `started_at.gt."2026-11-20T10:00:00Z",and(started_at.eq."2026-11-20T10:00:00Z",id.gt.${ID})`,
    });
  });
});

describe('toPage', () => {
  it('knows a next page from the one extra row, and none before the first', () => {
    const page = toPage([row(9), row(8), row(7)], 'newest', null, 2);
    expect(page.rows.map((call) => call.id)).toEqual([row(9).id, row(8).id]);
    expect(page.previous).toBeNull();
    expect(page.next).toEqual({ edge: 'after', value: row(8).started_at, id: row(8).id });
  });

  it('has a page before any page reached through a cursor, and no next at the end', () => {
    const cursor = { edge: 'after', value: row(9).started_at, id: row(9).id } as const;
    const page = toPage([row(8)], 'newest', cursor, 2);
    expect(page.previous).toEqual({ edge: 'before', value: row(8).started_at, id: row(8).id });
    expect(page.next).toBeNull();
  });

  it('turns a backwards read around, and knows the first page when it reaches it', () => {
    const cursor = { edge: 'before', value: '107', id: row(7).id } as const;
    const middle = toPage([row(8), row(9), row(10)], 'longest', cursor, 2);
    expect(middle.rows.map((call) => call.duration_seconds)).toEqual([109, 108]);
    expect(middle.previous).toEqual({ edge: 'before', value: '109', id: row(9).id });
    expect(middle.next).toEqual({ edge: 'after', value: '108', id: row(8).id });

    const first = toPage([row(8)], 'longest', cursor, 2);
    expect(first.previous).toBeNull();
    expect(first.next).toEqual({ edge: 'after', value: '108', id: row(8).id });
  });
});

describe('helpers', () => {
  it('names the customer’s number by direction', () => {
    expect(customerNumber(row(1))).toBe('+14155550100');
    expect(customerNumber({ ...row(1), direction: 'outbound' })).toBe('+14155550199');
  });

  it('names the export after its period', () => {
    expect(csvFileName('2026-10-26', '2026-11-24')).toBe(
      'cervana-calls-2026-10-26-to-2026-11-24.csv',
    );
    expect(csvFileName('2026-11-24', '2026-11-24')).toBe('cervana-calls-2026-11-24.csv');
  });
});
