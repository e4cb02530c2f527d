import { describe, expect, it } from 'vitest';
import type { ReadNode } from './plan/read-plan';
import {
  MAX_CACHED_READS,
  MAX_READ_KEY_LENGTH,
  cachedRead,
  cachedReadCount,
  fillTemplate,
  filledParams,
  readKey,
  sentinelValues,
  templateQuery,
  templateSlots,
  rememberRead,
  type CachedRead,
  type ReadShape,
} from './read-cache';
import type { Relation, SchemaCache } from './schema-cache';

function schemaCache(): SchemaCache {
  return {
    schemas: ['public'],
    relations: new Map(),
    foreignKeys: [],
    routines: new Map(),
    loadedAt: Date.now(),
  };
}

function entry(sql: string): CachedRead {
  return {
    relation: {} as Relation,
    media: 'json',
    stripNulls: false,
    root: {} as ReadNode,
    sql,
    params: [],
  };
}

const shape: ReadShape = {
  method: 'GET',
  schema: 'public',
  name: 'books',
  role: 'authenticated',
  accept: undefined,
  range: undefined,
  prefer: undefined,
  query: 'select=*&id=eq.1',
};

describe('readKey', () => {
  it('differs whenever anything that shapes the SQL or the response differs', () => {
    const variants: Partial<ReadShape>[] = [
      { method: 'HEAD' },
      { schema: 'other' },
      { name: 'authors' },
      { role: 'anon' },
      { role: 'service_role' },
      { accept: 'application/vnd.pgrst.object+json' },
      { accept: '' },
      { range: '0-9' },
      { prefer: 'count=exact' },
      { query: 'select=*&id=eq.2' },
      { query: '' },
    ];
    const keys = new Set([readKey(shape), ...variants.map((v) => readKey({ ...shape, ...v }))]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('cannot be forged by moving a separator between parts', () => {
    const a = readKey({ ...shape, name: 'books","x', query: 'q' });
    const b = readKey({ ...shape, name: 'books', query: 'x","q' });
    expect(a).not.toBe(b);
    const c = readKey({ ...shape, accept: undefined, range: 'null' });
    const d = readKey({ ...shape, accept: 'null', range: undefined });
    expect(c).not.toBe(d);
  });

  it('is undefined for a request too large to keep', () => {
    expect(readKey({ ...shape, query: 'a'.repeat(MAX_READ_KEY_LENGTH) })).toBeUndefined();
  });
});

describe('the read cache', () => {
  it('keeps entries per schema cache: a reloaded schema cache starts empty', () => {
    const before = schemaCache();
    const key = readKey(shape)!;
    rememberRead(before, key, entry('select 1'));
    expect(cachedRead(before, key)?.sql).toBe('select 1');
    const reloaded = schemaCache();
    expect(cachedRead(reloaded, key)).toBeUndefined();
    expect(cachedReadCount(reloaded)).toBe(0);
  });

  it('holds at most MAX_CACHED_READS entries, dropping the least recently used', () => {
    const cache = schemaCache();
    const key = (index: number) => readKey({ ...shape, query: `id=eq.${index}` })!;
    for (let index = 0; index < MAX_CACHED_READS; index += 1) {
      rememberRead(cache, key(index), entry(`select ${index}`));
    }
    // Entry 0 is used again, so entry 1 is now the oldest.
    expect(cachedRead(cache, key(0))?.sql).toBe('select 0');
    rememberRead(cache, key(MAX_CACHED_READS), entry('select new'));
    expect(cachedReadCount(cache)).toBe(MAX_CACHED_READS);
    expect(cachedRead(cache, key(1))).toBeUndefined();
    expect(cachedRead(cache, key(0))?.sql).toBe('select 0');
    expect(cachedRead(cache, key(MAX_CACHED_READS))?.sql).toBe('select new');
  });
});

describe('templateQuery', () => {
  it('takes out the values of plain top-level comparisons', () => {
    expect(templateQuery('select=*&id=eq.42')).toEqual({
      template: 'select=*&id=eq.\u0000',
      values: ['42'],
    });
    expect(templateQuery('a=not.lt.2024-01-01T10:00:00&author.id=gte.3&order=id')).toEqual({
      template: 'a=not.lt.\u0000&author.id=gte.\u0000&order=id',
      values: ['2024-01-01T10:00:00', '3'],
    });
  });

  it('leaves alone what is not a plain value of a plain comparison', () => {
    for (const query of [
      'select=*',
      'name=like.a*',
      'name=eq.a%20b',
      'name=eq.a+b',
      'id=in.(1,2)',
      'id=is.null',
      'id=eq(any).{1,2}',
      'limit=eq.5',
      'author.order=eq.5',
      'or=(id.eq.1,id.eq.2)',
      'id=eq.',
      'id=eq.1#x',
      'select=id&id=eq.1\u0000',
    ]) {
      expect(templateQuery(query), query).toBeUndefined();
    }
  });

  it('fills a template back to the query it came from', () => {
    const query = 'select=id,title&id=eq.7&author_id=neq.abc-def&limit=5';
    const { template, values } = templateQuery(query)!;
    expect(fillTemplate(template, values)).toBe(query);
    expect(fillTemplate(template, sentinelValues(2))).not.toContain('\u0000');
  });
});

describe('templateSlots', () => {
  const values = ['7', '50'];
  const sentinels = sentinelValues(2);

  it('maps each value to the parameters it became, repeated or not', () => {
    const slots = templateSlots(
      { sql: 'q $1 $2 $3 $4', params: ['7', '50', '50', '7'], values },
      {
        sql: 'q $1 $2 $3 $4',
        params: [sentinels[0], '50', sentinels[1], sentinels[0]],
        values: sentinels,
      },
    );
    expect(slots).toEqual([
      [0, 0],
      [2, 1],
      [3, 0],
    ]);
    const read = { ...entry('q'), params: ['7', '50', '50', '7'], slots: slots! };
    expect(filledParams(read, ['8', '9'])).toEqual(['8', '50', '9', '8']);
    // The kept parameters are not changed by filling them.
    expect(read.params).toEqual(['7', '50', '50', '7']);
  });

  it('refuses when the SQL depends on a value, or a value is not a parameter', () => {
    expect(
      templateSlots(
        { sql: "q '7'", params: [], values: ['7'] },
        { sql: `q '${sentinels[0]}'`, params: [], values: [sentinels[0]!] },
      ),
    ).toBeUndefined();
    expect(
      templateSlots(
        { sql: 'q $1', params: ['x'], values: ['7'] },
        { sql: 'q $1', params: ['x'], values: [sentinels[0]!] },
      ),
    ).toBeUndefined();
    expect(
      templateSlots(
        { sql: 'q $1', params: ['7%'], values: ['7'] },
        { sql: 'q $1', params: [`${sentinels[0]}%`], values: [sentinels[0]!] },
      ),
    ).toBeUndefined();
    expect(
      templateSlots(
        { sql: 'q $1', params: ['7'], values: ['7'] },
        { sql: 'q $1 $2', params: [sentinels[0], 'x'], values: [sentinels[0]!] },
      ),
    ).toBeUndefined();
  });
});
