/** The request grammar of PostgREST's query string (contract §6.1), parsed. */

export interface JsonOperation {
  arrow: '->' | '->>';
  /** A key, or an array index (which may be negative). */
  operand: { kind: 'key'; key: string } | { kind: 'index'; index: number };
}

export interface Field {
  name: string;
  jsonPath: JsonOperation[];
}

export type AggregateFunction = 'sum' | 'avg' | 'count' | 'max' | 'min';

export interface SelectField {
  kind: 'field';
  field: Field;
  alias?: string;
  cast?: string;
  aggregate?: AggregateFunction;
  aggregateCast?: string;
}

export interface SelectRelation {
  kind: 'relation' | 'spread';
  name: string;
  alias?: string;
  hint?: string;
  joinType?: 'inner' | 'left';
  children: SelectItem[];
}

export type SelectItem = SelectField | SelectRelation;

export type QuantOperator =
  'eq' | 'gte' | 'gt' | 'lte' | 'lt' | 'like' | 'ilike' | 'match' | 'imatch';
export type SimpleOperator = 'neq' | 'cs' | 'cd' | 'ov' | 'sl' | 'sr' | 'nxr' | 'nxl' | 'adj';
export type FtsOperator = 'fts' | 'plfts' | 'phfts' | 'wfts';
export type IsValue = 'null' | 'not_null' | 'true' | 'false' | 'unknown';

export type Operation =
  | { kind: 'quant'; operator: QuantOperator; quantifier?: 'any' | 'all'; value: string }
  | { kind: 'simple'; operator: SimpleOperator; value: string }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: IsValue }
  | { kind: 'isdistinct'; value: string }
  | { kind: 'fts'; operator: FtsOperator; language?: string; value: string };

export interface Filter {
  field: Field;
  negated: boolean;
  operation: Operation;
}

export type LogicTree =
  | { kind: 'expression'; negated: boolean; operator: 'and' | 'or'; children: LogicTree[] }
  | { kind: 'filter'; filter: Filter };

export interface OrderTerm {
  /** `rel(col)`: order by a column of a to-one embedded resource. */
  relation?: string;
  field: Field;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** Where in the embedding tree a parameter applies: [] for the root, ['rel', 'sub'] below. */
export type EmbedPath = string[];
