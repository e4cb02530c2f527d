import { describe, expect, it } from 'vitest';
import { StatementCache } from './statement-cache';

describe('StatementCache', () => {
  it('parses a text the first time and binds it by name afterwards', () => {
    const cache = new StatementCache();
    const first = cache.plan(['select 1', 'select 2', 'select 1']);
    expect(first.steps.map((step) => step.parse)).toEqual([true, true, false]);
    expect(first.steps[2]!.name).toBe(first.steps[0]!.name);
    first.succeeded();
    const second = cache.plan(['select 2', 'select 1']);
    expect(second.steps).toEqual([
      { name: first.steps[1]!.name, parse: false },
      { name: first.steps[0]!.name, parse: false },
    ]);
  });

  it('remembers nothing of a pipeline that failed, and closes all of its statements', () => {
    const cache = new StatementCache();
    const known = cache.plan(['select 1']);
    known.succeeded();
    const failing = cache.plan(['select 1', 'select 1/0']);
    const closed = failing.failed();
    expect(closed).toEqual([known.steps[0]!.name, failing.steps[1]!.name]);
    const next = cache.plan(['select 1', 'select 1/0']);
    expect(next.steps.every((step) => step.parse)).toBe(true);
    expect(next.steps.map((step) => step.name)).not.toContain(known.steps[0]!.name);
  });

  it('closes the least recently used statements beyond its capacity, in the next pipeline', () => {
    const cache = new StatementCache(2);
    const a = cache.plan(['a']);
    a.succeeded();
    const b = cache.plan(['b']);
    b.succeeded();
    cache.plan(['a']).succeeded(); // a is now more recent than b
    const c = cache.plan(['c']);
    expect(c.close).toEqual([]);
    c.succeeded();
    const next = cache.plan(['a']);
    expect(next.close).toEqual([b.steps[0]!.name]);
    expect(next.steps[0]).toEqual({ name: a.steps[0]!.name, parse: false });
  });
});
