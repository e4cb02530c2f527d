import { describe, expect, it } from 'vitest';
import { FuzzySet, gramVector, levenshteinSimilarity } from './fuzzy-set';

/** The Haskell fuzzyset's documented behaviour, and PostgREST's noRpcHint examples. */

const listToText = (names: string[]) => `(${[...names].sort().join(', ')})`;

describe('FuzzySet', () => {
  it('cuts n-grams from the normalised text enclosed in hyphens', () => {
    expect(Object.fromEntries(gramVector('xxxx', 2))).toEqual({ '-x': 1, xx: 3, 'x-': 1 });
    expect([...gramVector('Destroido Corp.', 3).keys()]).toContain('o c');
    expect(gramVector('a_b', 2).has('ab')).toBe(true);
  });

  it('scores by normalised Levenshtein similarity', () => {
    expect(levenshteinSimilarity('projectx', 'projects')).toBe(0.875);
    expect(levenshteinSimilarity('projxxxx', 'projects')).toBe(0.5);
    expect(levenshteinSimilarity('', '')).toBe(1);
  });

  it('answers a case-insensitive exact match with score 1', () => {
    expect(new FuzzySet(['Coffee', 'tea']).get('coffee')).toEqual([[1, 'Coffee']]);
  });

  it('finds a function name at 0.75 or more, as noRpcHint', () => {
    const names = new FuzzySet(['test', 'another']);
    expect(names.getOne('testt', 0.75)).toBe('test');
    expect(names.getOne('other', 0.75)).toBeUndefined();
    expect(names.getOne('noclosealternative', 0.75)).toBeUndefined();
  });

  it('finds a parameter list at 0.33 or more, as noRpcHint', () => {
    const lists = new FuzzySet([listToText(['val', 'param', 'name']), listToText(['id', 'attr'])]);
    expect(lists.getOne(listToText(['vall', 'pqaram', 'nam']))).toBe('(name, param, val)');
    expect(lists.getOne(listToText(['val', 'param']))).toBe('(name, param, val)');
    expect(lists.getOne(listToText(['id', 'attrs']))).toBe('(attr, id)');
    expect(lists.getOne(listToText(['id']))).toBe('(attr, id)');
    expect(lists.getOne(listToText(['noclosealternative']))).toBeUndefined();
  });
});
