import { RestError } from '../errors';
import type {
  AggregateFunction,
  EmbedPath,
  Field,
  Filter,
  FtsOperator,
  IsValue,
  JsonOperation,
  LogicTree,
  Operation,
  OrderTerm,
  QuantOperator,
  SelectItem,
  SimpleOperator,
} from './types';

/**
 * Recursive-descent parsers for PostgREST's query-string grammar
 * (PostgREST.ApiRequest.QueryParams). Errors carry PostgREST's message shape:
 * `"failed to parse <what> (<input>)" (line 1, column N)` with details saying
 * what was found and what was expected.
 */

/** Thrown to backtrack; not an Error, so no stack trace is captured on every alternative tried. */
class ParseFailure {
  constructor(
    readonly position: number,
    readonly expected: string[],
    /** Not backtracked over (no alternative can succeed). */
    readonly isFatal = false,
  ) {}
}

/**
 * How deep logic trees, embedded resources and JSON paths may nest. PostgREST
 * has no limit, but planning (here) and PostgreSQL recurse per level: thousands
 * of levels exhaust a stack (a 500), and PGlite already fails near 100 embeds.
 */
export const MAX_NESTING = 50;

class Cursor {
  position = 0;
  depth = 0;
  constructor(readonly input: string) {}

  get isAtEnd(): boolean {
    return this.position >= this.input.length;
  }
  peek(length = 1): string {
    return this.input.slice(this.position, this.position + length);
  }
  startsWith(text: string): boolean {
    return this.input.startsWith(text, this.position);
  }
  /** Consumes `text` if it is next. */
  accept(text: string): boolean {
    if (!this.startsWith(text)) return false;
    this.position += text.length;
    return true;
  }
  expect(text: string, description = `"${text}"`): void {
    if (!this.accept(text)) this.fail([description]);
  }
  fail(expected: string[]): never {
    throw new ParseFailure(this.position, expected);
  }
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.position += 1;
  }
  /** Runs `parse`; on failure restores the position and returns undefined (parsec's `try … <|>`). */
  attempt<T>(parse: () => T): T | undefined {
    const start = this.position;
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ParseFailure) || error.isFatal) throw error;
      this.position = start;
      return undefined;
    }
  }
  /** Runs `parse` one nesting level deeper; too deep is a parse error no alternative recovers from. */
  nested<T>(parse: () => T): T {
    if (this.depth >= MAX_NESTING) {
      throw new ParseFailure(this.position, [`at most ${MAX_NESTING} levels of nesting`], true);
    }
    this.depth += 1;
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }
}

function run<T>(what: string, input: string, parse: (cursor: Cursor) => T): T {
  const cursor = new Cursor(input);
  try {
    const result = parse(cursor);
    if (!cursor.isAtEnd) cursor.fail(['end of input']);
    return result;
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    const found =
      error.position >= input.length ? 'end of input' : `"${input.charAt(error.position)}"`;
    const expected = [...new Set(error.expected)];
    const expecting =
      expected.length === 0
        ? ''
        : ` expecting ${expected.length === 1 ? expected[0] : `${expected.slice(0, -1).join(', ')} or ${expected.at(-1)}`}`;
    throw new RestError(
      400,
      'PGRST100',
      `"failed to parse ${what} (${input})" (line 1, column ${error.position + 1})`,
      `unexpected ${found}${expecting}`,
    );
  }
}

// ---- names -----------------------------------------------------------------

const IDENTIFIER_CHAR = /[\p{L}\p{N}_ $]/u;
const FIELD_NAME = 'field name (* or [a..z0..9_$])';

function quotedValue(cursor: Cursor): string {
  cursor.expect('"');
  let value = '';
  for (;;) {
    if (cursor.isAtEnd) cursor.fail(['"\\""']);
    const character = cursor.peek();
    cursor.position += 1;
    if (character === '"') return value;
    if (character === '\\') {
      if (cursor.isAtEnd) cursor.fail(['any character']);
      value += cursor.peek();
      cursor.position += 1;
    } else {
      value += character;
    }
  }
}

function identifier(
  cursor: Cursor,
  isChar: (character: string) => boolean,
  description: string,
): string {
  const start = cursor.position;
  while (!cursor.isAtEnd && isChar(cursor.peek())) cursor.position += 1;
  if (cursor.position === start) cursor.fail([description]);
  return cursor.input.slice(start, cursor.position).trim();
}

/** Identifiers joined by dashes (a dash followed by `>` starts a JSON arrow instead). */
function dashed(cursor: Cursor, part: () => string): string {
  const parts = [part()];
  while (cursor.peek() === '-' && cursor.peek(2) !== '->') {
    cursor.position += 1;
    parts.push(part());
  }
  return parts.join('-');
}

function fieldName(cursor: Cursor): string {
  if (cursor.peek() === '"') return quotedValue(cursor);
  return dashed(cursor, () => identifier(cursor, (c) => IDENTIFIER_CHAR.test(c), FIELD_NAME));
}

/** Type names in casts: letters, digits, `_`, `$` and spaces (`double precision`), nothing else. */
function typeName(cursor: Cursor): string {
  const start = cursor.position;
  const name = identifier(cursor, (c) => IDENTIFIER_CHAR.test(c), 'letter or digit');
  // Casts reach SQL unquoted (as in PostgREST): a word starting with `$` would be
  // a parameter (`$1`) or open a dollar-quoted string (`$$`), changing the statement.
  if (name === '') {
    cursor.position = start;
    cursor.fail(['letter or digit']);
  }
  const dollar = /(?:^|\s)\$/.exec(cursor.input.slice(start, cursor.position));
  if (dollar) {
    cursor.position = start + dollar.index + dollar[0].length - 1;
    cursor.fail(['letter or digit']);
  }
  return name;
}

// ---- JSON paths ----------------------------------------------------------

function jsonKey(cursor: Cursor): string {
  if (cursor.peek() === '"') return quotedValue(cursor);
  return dashed(cursor, () =>
    identifier(
      cursor,
      (c) => !'(-:.,>)'.includes(c),
      'any non reserved character different from: .,>()',
    ),
  );
}

function jsonPath(cursor: Cursor): JsonOperation[] {
  const path: JsonOperation[] = [];
  for (;;) {
    if (path.length >= MAX_NESTING && cursor.startsWith('->')) {
      throw new ParseFailure(cursor.position, [`at most ${MAX_NESTING} levels of nesting`], true);
    }
    const arrow = cursor.accept('->>') ? '->>' : cursor.accept('->') ? '->' : undefined;
    if (!arrow) return path;
    const index = cursor.attempt(() => {
      const match = /^-?\d+/.exec(cursor.input.slice(cursor.position));
      if (!match) cursor.fail(['digit']);
      cursor.position += match[0].length;
      const rest = cursor.input.slice(cursor.position);
      if (!(rest === '' || /^(->|::|\.|,|\))/.test(rest))) cursor.fail(['digit']);
      return Number(match[0]);
    });
    path.push(
      index === undefined
        ? { arrow, operand: { kind: 'key', key: jsonKey(cursor) } }
        : { arrow, operand: { kind: 'index', index } },
    );
  }
}

function field(cursor: Cursor): Field {
  cursor.skipSpaces();
  const name = fieldName(cursor);
  const path = jsonPath(cursor);
  cursor.skipSpaces();
  return { name, jsonPath: path };
}

// ---- select ---------------------------------------------------------------

const AGGREGATES: AggregateFunction[] = ['sum', 'avg', 'count', 'max', 'min'];

function atItemEnd(cursor: Cursor): boolean {
  return cursor.isAtEnd || cursor.peek() === ',' || cursor.peek() === ')';
}

function aliasPrefix(cursor: Cursor): string | undefined {
  return cursor.attempt(() => {
    const alias = fieldName(cursor);
    if (!cursor.accept(':') || cursor.peek() === ':') cursor.fail(['":"']);
    return alias;
  });
}

function embedParams(cursor: Cursor): { hint?: string; joinType?: 'inner' | 'left' } {
  const result: { hint?: string; joinType?: 'inner' | 'left' } = {};
  for (let index = 0; index < 2 && cursor.accept('!'); index += 1) {
    const joinType = (['inner', 'left'] as const).find(
      (candidate) =>
        cursor.startsWith(candidate) &&
        /^[!(]/.test(cursor.input.charAt(cursor.position + candidate.length)),
    );
    if (joinType) {
      cursor.position += joinType.length;
      result.joinType ??= joinType;
    } else {
      result.hint ??= fieldName(cursor);
    }
  }
  return result;
}

function relationItem(cursor: Cursor): SelectItem {
  cursor.skipSpaces();
  const isSpread = cursor.accept('...');
  const alias = isSpread ? undefined : aliasPrefix(cursor);
  const name = fieldName(cursor);
  if (!isSpread && name === 'count') cursor.fail(['"("']);
  const { hint, joinType } = embedParams(cursor);
  cursor.expect('(');
  const children = cursor.nested(() => selectForest(cursor));
  cursor.expect(')');
  cursor.skipSpaces();
  return {
    kind: isSpread ? 'spread' : 'relation',
    name,
    ...(alias !== undefined ? { alias } : {}),
    ...(hint !== undefined ? { hint } : {}),
    ...(joinType !== undefined ? { joinType } : {}),
    children,
  };
}

function fieldItem(cursor: Cursor): SelectItem {
  cursor.skipSpaces();
  if (cursor.peek() === '*') {
    cursor.position += 1;
    cursor.skipSpaces();
    if (!atItemEnd(cursor)) cursor.fail(['")"', '","', 'end of input']);
    return { kind: 'field', field: { name: '*', jsonPath: [] } };
  }
  const alias = aliasPrefix(cursor);
  if (cursor.accept('count()')) {
    const aggregateCast = cursor.accept('::') ? typeName(cursor) : undefined;
    cursor.skipSpaces();
    if (!atItemEnd(cursor)) cursor.fail(['")"', '","', 'end of input']);
    return {
      kind: 'field',
      field: { name: '*', jsonPath: [] },
      aggregate: 'count',
      ...(alias !== undefined ? { alias } : {}),
      ...(aggregateCast !== undefined ? { aggregateCast } : {}),
    };
  }
  const parsed = field(cursor);
  const cast = cursor.accept('::') ? typeName(cursor) : undefined;
  const aggregate = cursor.attempt(() => {
    cursor.expect('.', 'delimiter (.)');
    const name = AGGREGATES.find((candidate) => cursor.startsWith(`${candidate}()`));
    if (!name) cursor.fail(['aggregate function']);
    cursor.position += name.length + 2;
    return name;
  });
  const aggregateCast = aggregate && cursor.accept('::') ? typeName(cursor) : undefined;
  cursor.skipSpaces();
  if (!atItemEnd(cursor)) {
    cursor.fail([
      'letter',
      'digit',
      '"-"',
      '"->>"',
      '"->"',
      '"::"',
      '"."',
      '")"',
      '","',
      'end of input',
    ]);
  }
  return {
    kind: 'field',
    field: parsed,
    ...(alias !== undefined ? { alias } : {}),
    ...(cast !== undefined ? { cast } : {}),
    ...(aggregate !== undefined ? { aggregate } : {}),
    ...(aggregateCast !== undefined ? { aggregateCast } : {}),
  };
}

function selectForest(cursor: Cursor): SelectItem[] {
  const items: SelectItem[] = [];
  if (cursor.isAtEnd || cursor.peek() === ')') return items;
  for (;;) {
    items.push(cursor.attempt(() => relationItem(cursor)) ?? fieldItem(cursor));
    cursor.skipSpaces();
    if (!cursor.accept(',')) return items;
    cursor.skipSpaces();
  }
}

export function parseSelect(input: string): SelectItem[] {
  return run('select parameter', input, selectForest);
}

// ---- filters ----------------------------------------------------------------

const QUANT_OPERATORS: QuantOperator[] = [
  'eq',
  'gte',
  'gt',
  'lte',
  'lt',
  'like',
  'ilike',
  'match',
  'imatch',
];
const SIMPLE_OPERATORS: SimpleOperator[] = [
  'neq',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
];
const FTS_OPERATORS: FtsOperator[] = ['fts', 'plfts', 'phfts', 'wfts'];
const IS_VALUES: IsValue[] = ['null', 'not_null', 'true', 'false', 'unknown'];
const OPERATOR = 'operator (eq, gt, ...)';

function listElement(cursor: Cursor): string {
  const quoted = cursor.attempt(() => {
    const value = quotedValue(cursor);
    if (!cursor.isAtEnd && !',)'.includes(cursor.peek())) cursor.fail(['","', '")"']);
    return value;
  });
  if (quoted !== undefined) return quoted;
  const start = cursor.position;
  while (!cursor.isAtEnd && !',)'.includes(cursor.peek())) cursor.position += 1;
  return cursor.input.slice(start, cursor.position);
}

function listValue(cursor: Cursor): string[] {
  cursor.skipSpaces();
  cursor.expect('(');
  cursor.skipSpaces();
  const values = [listElement(cursor)];
  while (cursor.accept(',')) values.push(listElement(cursor));
  cursor.skipSpaces();
  cursor.expect(')');
  cursor.skipSpaces();
  return values;
}

/** The operator and its value; `singleValue` reads the rest (whole input, or up to `,)` in logic trees). */
function operatorExpression(
  cursor: Cursor,
  singleValue: (cursor: Cursor) => string,
): { negated: boolean; operation: Operation } {
  const negated =
    cursor.attempt(() => {
      cursor.expect('not');
      cursor.expect('.', 'delimiter (.)');
      return true;
    }) ?? false;
  const operation =
    cursor.attempt((): Operation => {
      cursor.expect('in');
      cursor.expect('.', 'delimiter (.)');
      return { kind: 'in', values: listValue(cursor) };
    }) ??
    cursor.attempt((): Operation => {
      cursor.expect('isdistinct');
      cursor.expect('.', 'delimiter (.)');
      return { kind: 'isdistinct', value: singleValue(cursor) };
    }) ??
    cursor.attempt((): Operation => {
      cursor.expect('is');
      cursor.expect('.', 'delimiter (.)');
      const rest = cursor.input.slice(cursor.position).toLowerCase();
      const value = IS_VALUES.find((candidate) => rest.startsWith(candidate));
      if (!value) cursor.fail(['isVal: (null, not_null, true, false, unknown)']);
      cursor.position += value.length;
      return { kind: 'is', value };
    }) ??
    cursor.attempt((): Operation => {
      const operator = FTS_OPERATORS.find((candidate) => cursor.startsWith(candidate));
      if (!operator) cursor.fail([OPERATOR]);
      cursor.position += operator.length;
      let language: string | undefined;
      if (cursor.accept('(')) {
        language = typeName(cursor);
        cursor.expect(')');
      }
      cursor.expect('.', 'delimiter (.)');
      return {
        kind: 'fts',
        operator,
        ...(language ? { language } : {}),
        value: singleValue(cursor),
      };
    }) ??
    cursor.attempt((): Operation => {
      const operator = SIMPLE_OPERATORS.find((candidate) => cursor.startsWith(`${candidate}.`));
      if (!operator) cursor.fail([OPERATOR]);
      cursor.position += operator.length + 1;
      return { kind: 'simple', operator, value: singleValue(cursor) };
    }) ??
    cursor.attempt((): Operation => {
      const operator = QUANT_OPERATORS.find((candidate) => cursor.startsWith(candidate));
      if (!operator) cursor.fail([OPERATOR]);
      cursor.position += operator.length;
      let quantifier: 'any' | 'all' | undefined;
      if (cursor.accept('(any)')) quantifier = 'any';
      else if (cursor.accept('(all)')) quantifier = 'all';
      cursor.expect('.', 'delimiter (.)');
      return {
        kind: 'quant',
        operator,
        ...(quantifier ? { quantifier } : {}),
        value: singleValue(cursor),
      };
    });
  if (!operation) cursor.fail(negated ? [OPERATOR] : ['"not"', OPERATOR]);
  return { negated, operation };
}

const wholeRest = (cursor: Cursor) => {
  const value = cursor.input.slice(cursor.position);
  cursor.position = cursor.input.length;
  return value;
};

/** `path.to.field->json=op.value`: where it applies, and the filter. */
export function parseFilter(key: string, value: string): { path: EmbedPath; filter: Filter } {
  const { path, field: target } = parseTreePath(key);
  const { negated, operation } = run('filter', value, (cursor) =>
    operatorExpression(cursor, wholeRest),
  );
  return { path, filter: { field: target, negated, operation } };
}

/** Whether a value has an operator at all (an RPC GET parameter has none). */
export function hasOperator(value: string): boolean {
  try {
    run('filter', value, (cursor) => operatorExpression(cursor, wholeRest));
    return true;
  } catch {
    return false;
  }
}

export function parseTreePath(key: string): { path: EmbedPath; field: Field } {
  return run('tree path', key, (cursor) => {
    const names = [fieldName(cursor)];
    while (cursor.accept('.')) names.push(fieldName(cursor));
    const path = jsonPath(cursor);
    return { path: names.slice(0, -1), field: { name: names.at(-1)!, jsonPath: path } };
  });
}

// ---- logic trees ------------------------------------------------------------------

function logicSingleValue(cursor: Cursor): string {
  const quoted = cursor.attempt(() => {
    const value = quotedValue(cursor);
    if (!cursor.isAtEnd && !',)'.includes(cursor.peek())) cursor.fail(['","', '")"']);
    return value;
  });
  if (quoted !== undefined) return quoted;
  if (cursor.peek() === '{') {
    const end = cursor.input.indexOf('}', cursor.position);
    const inner = end === -1 ? '' : cursor.input.slice(cursor.position + 1, end);
    if (end !== -1 && !inner.includes('{')) {
      const value = cursor.input.slice(cursor.position, end + 1);
      cursor.position = end + 1;
      return value;
    }
  }
  const start = cursor.position;
  while (!cursor.isAtEnd && !',)'.includes(cursor.peek())) cursor.position += 1;
  return cursor.input.slice(start, cursor.position);
}

function logicTree(cursor: Cursor): LogicTree {
  const statement = cursor.attempt((): LogicTree => {
    const target = field(cursor);
    cursor.expect('.', 'delimiter (.)');
    const { negated, operation } = operatorExpression(cursor, logicSingleValue);
    return { kind: 'filter', filter: { field: target, negated, operation } };
  });
  if (statement) return statement;
  const negated =
    cursor.attempt(() => {
      cursor.expect('not');
      cursor.expect('.', 'delimiter (.)');
      return true;
    }) ?? false;
  let operator: 'and' | 'or';
  if (cursor.accept('and')) operator = 'and';
  else if (cursor.accept('or')) operator = 'or';
  else cursor.fail([FIELD_NAME, 'negation operator (not)', 'logic operator (and, or)']);
  cursor.skipSpaces();
  cursor.expect('(');
  cursor.skipSpaces();
  const children = cursor.nested(() => {
    const trees = [logicTree(cursor)];
    for (;;) {
      cursor.skipSpaces();
      if (!cursor.accept(',')) return trees;
      cursor.skipSpaces();
      trees.push(logicTree(cursor));
    }
  });
  cursor.skipSpaces();
  cursor.expect(')');
  cursor.skipSpaces();
  return { kind: 'expression', negated, operator, children };
}

/** `or=(a.eq.1,b.gt.2)`, `not.and=(…)`, `rel.or=(…)`. */
export function parseLogic(key: string, value: string): { path: EmbedPath; tree: LogicTree } {
  const segments = run('logic path', key, (cursor) => {
    const names = [fieldName(cursor)];
    while (cursor.accept('.')) names.push(fieldName(cursor));
    return names;
  });
  const operator = segments.at(-1)!;
  const isNegated = segments.slice(0, -1).includes('not');
  const path = segments.slice(0, -1).filter((segment) => segment !== 'not');
  const tree = run('logic tree', value, (cursor) => {
    const inner = new Cursor(`${isNegated ? 'not.' : ''}${operator}${value}`);
    inner.position = 0;
    const parsed = logicTree(inner);
    if (!inner.isAtEnd) {
      cursor.position = Math.max(0, inner.position - (inner.input.length - value.length));
      cursor.fail(['end of input']);
    }
    cursor.position = value.length;
    return parsed;
  });
  return { path, tree };
}

// ---- order ----------------------------------------------------------------------

function orderTail(cursor: Cursor): Pick<OrderTerm, 'direction' | 'nulls'> {
  const result: Pick<OrderTerm, 'direction' | 'nulls'> = {};
  if (cursor.startsWith('.asc')) {
    cursor.position += 4;
    result.direction = 'asc';
  } else if (cursor.startsWith('.desc')) {
    cursor.position += 5;
    result.direction = 'desc';
  }
  if (cursor.startsWith('.nullsfirst')) {
    cursor.position += 11;
    result.nulls = 'first';
  } else if (cursor.startsWith('.nullslast')) {
    cursor.position += 10;
    result.nulls = 'last';
  }
  cursor.skipSpaces();
  if (!(cursor.isAtEnd || cursor.peek() === ',')) {
    cursor.fail(
      result.direction || result.nulls
        ? ['","', 'end of input']
        : ['"asc"', '"desc"', '"nullsfirst"', '"nullslast"'],
    );
  }
  return result;
}

export function parseOrder(input: string): OrderTerm[] {
  return run('order', input, (cursor) => {
    const terms: OrderTerm[] = [];
    do {
      cursor.skipSpaces();
      const related = cursor.attempt((): OrderTerm => {
        const relation = fieldName(cursor);
        cursor.expect('(');
        const target = field(cursor);
        cursor.expect(')');
        return { relation, field: target, ...orderTail(cursor) };
      });
      terms.push(related ?? { field: field(cursor), ...orderTail(cursor) });
    } while (cursor.accept(','));
    return terms;
  });
}

/** `columns=` and `on_conflict=`: comma-separated names. */
export function parseColumns(
  what: 'columns parameter' | 'on_conflict parameter',
  input: string,
): string[] {
  return run(what, input, (cursor) => {
    const names: string[] = [];
    do {
      cursor.skipSpaces();
      names.push(fieldName(cursor));
      cursor.skipSpaces();
    } while (cursor.accept(','));
    return names;
  });
}
