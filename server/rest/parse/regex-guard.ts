import { RestError } from '../errors';

/**
 * Refuses regular expressions (the `match` and `imatch` operators) that could
 * cost the database more than a query should: longer than MAX_PATTERN_LENGTH,
 * with back-references, with a bounded repeat of something that itself
 * repeats, or whose compiled size (estimated: each repeat copies its atom)
 * passes MAX_PATTERN_COST. On PGlite such a pattern is worse than slow: one
 * too complex to compile breaks the instance (decision 014).
 *
 * The scan follows PostgreSQL's advanced regular expressions (ARE) closely
 * enough to count; PostgreSQL still parses the pattern and reports its own
 * syntax errors.
 */

export const MAX_PATTERN_LENGTH = 1000;
export const MAX_PATTERN_COST = 5000;

interface Scan {
  pattern: string;
  position: number;
}

interface Measure {
  /** Estimated states after repeats are expanded. */
  cost: number;
  /** Whether it contains a repeat (*, +, ?, {m,n}). */
  repeats: boolean;
}

class Refusal extends Error {}

const BOUND = /^\{(\d{1,6})(,(\d{0,6}))?\}/;

/** A bracket expression `[...]`, including `[]a]`, `[^]a]` and `[:alpha:]`-style items. */
function skipBracket(scan: Scan): void {
  const { pattern } = scan;
  let position = scan.position + 1;
  if (pattern[position] === '^') position += 1;
  if (pattern[position] === ']') position += 1;
  while (position < pattern.length && pattern[position] !== ']') {
    if (pattern[position] === '[' && ':.='.includes(pattern[position + 1] ?? '')) {
      const close = pattern.indexOf(`${pattern[position + 1]}]`, position + 2);
      position = close === -1 ? pattern.length : close + 2;
    } else {
      position += pattern[position] === '\\' ? 2 : 1;
    }
  }
  scan.position = Math.min(position + 1, pattern.length);
}

function atom(scan: Scan): Measure {
  const { pattern } = scan;
  const character = pattern[scan.position]!;
  if (character === '(') {
    scan.position += 1;
    if (pattern[scan.position] === '?') {
      // (?: (?= (?! (?<= (?<!
      scan.position += pattern[scan.position + 1] === '<' ? 3 : 2;
    }
    const inner = alternation(scan);
    if (pattern[scan.position] === ')') scan.position += 1;
    return { cost: inner.cost + 1, repeats: inner.repeats };
  }
  if (character === '[') {
    skipBracket(scan);
    return { cost: 1, repeats: false };
  }
  if (character === '\\') {
    const next = pattern[scan.position + 1] ?? '';
    if (/[1-9]/.test(next)) throw new Refusal('back-references are not allowed');
    scan.position += 2;
    return { cost: 1, repeats: false };
  }
  scan.position += 1;
  return { cost: 1, repeats: false };
}

/** The repeat after an atom, if any: its largest count (Infinity for unbounded) and whether it is a `{}` bound. */
function quantifier(scan: Scan): { count: number; bounded: boolean } | undefined {
  const { pattern } = scan;
  const character = pattern[scan.position];
  let result: { count: number; bounded: boolean } | undefined;
  if (character === '*' || character === '+' || character === '?') {
    scan.position += 1;
    result = { count: character === '?' ? 1 : 2, bounded: false };
  } else if (character === '{') {
    const bound = BOUND.exec(pattern.slice(scan.position));
    if (!bound) return undefined;
    scan.position += bound[0].length;
    const low = Number(bound[1]);
    const high = bound[2] === undefined ? low : bound[3] === '' ? low + 1 : Number(bound[3]);
    result = { count: Math.max(low, high, 1), bounded: true };
  }
  if (result && pattern[scan.position] === '?') scan.position += 1; // non-greedy
  return result;
}

function sequence(scan: Scan): Measure {
  const { pattern } = scan;
  let cost = 0;
  let repeats = false;
  while (
    scan.position < pattern.length &&
    pattern[scan.position] !== '|' &&
    pattern[scan.position] !== ')'
  ) {
    const measured = atom(scan);
    let atomCost = measured.cost;
    let atomRepeats = measured.repeats;
    for (let repeat = quantifier(scan); repeat; repeat = quantifier(scan)) {
      if (repeat.bounded && repeat.count > 1 && atomRepeats) {
        throw new Refusal('a bounded repeat of something that itself repeats is not allowed');
      }
      atomCost = atomCost * repeat.count + 1;
      atomRepeats = true;
      if (atomCost > MAX_PATTERN_COST) throw new Refusal('the pattern is too complex');
    }
    cost += atomCost;
    repeats ||= atomRepeats;
    if (cost > MAX_PATTERN_COST) throw new Refusal('the pattern is too complex');
  }
  return { cost, repeats };
}

function alternation(scan: Scan): Measure {
  const first = sequence(scan);
  let { cost, repeats } = first;
  while (scan.pattern[scan.position] === '|') {
    scan.position += 1;
    const next = sequence(scan);
    cost += next.cost;
    repeats ||= next.repeats;
    if (cost > MAX_PATTERN_COST) throw new Refusal('the pattern is too complex');
  }
  return { cost, repeats };
}

/** The patterns a `match`/`imatch` value holds: one, or each element of an `(any)`/`(all)` array. */
function patternsOf(value: string, isQuantified: boolean): string[] {
  if (!isQuantified || !value.startsWith('{') || !value.endsWith('}')) return [value];
  const elements: string[] = [];
  const body = value.slice(1, -1);
  let position = 0;
  while (position <= body.length) {
    let element = '';
    if (body[position] === '"') {
      position += 1;
      while (position < body.length && body[position] !== '"') {
        if (body[position] === '\\') position += 1;
        element += body[position] ?? '';
        position += 1;
      }
      position += 1;
    }
    while (position < body.length && body[position] !== ',') {
      element += body[position];
      position += 1;
    }
    elements.push(element);
    position += 1;
  }
  return elements;
}

/** Throws PostgreSQL's 2201B (HTTP 400) for a pattern this server will not run. */
export function checkRegexPattern(value: string, isQuantified = false): void {
  if (value.length > MAX_PATTERN_LENGTH * (isQuantified ? 4 : 1)) {
    throw refused(`patterns are limited to ${MAX_PATTERN_LENGTH} characters`);
  }
  for (const pattern of patternsOf(value, isQuantified)) {
    if (pattern.length > MAX_PATTERN_LENGTH) {
      throw refused(`patterns are limited to ${MAX_PATTERN_LENGTH} characters`);
    }
    // `***=` makes the rest a literal string; `***:` only announces ARE syntax.
    if (pattern.startsWith('***=')) continue;
    const scan: Scan = { pattern, position: pattern.startsWith('***:') ? 4 : 0 };
    try {
      while (scan.position < pattern.length) {
        alternation(scan);
        // An unbalanced `)`: PostgreSQL reports it; count on past it.
        if (scan.position < pattern.length) scan.position += 1;
      }
    } catch (error) {
      if (error instanceof Refusal) throw refused(error.message);
      throw error;
    }
  }
}

function refused(reason: string): RestError {
  return new RestError(
    400,
    '2201B',
    'invalid regular expression: regular expression is too complex',
    `This server refuses the pattern: ${reason}.`,
    `Keep patterns under ${MAX_PATTERN_LENGTH} characters, without back-references or nested bounded repeats such as (a{1,9}){1,9}.`,
  );
}
