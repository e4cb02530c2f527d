/**
 * The database port. Two implementations exist: PGlite (embedded, the default)
 * and PostgreSQL over the network (`DATABASE_URL`). main.ts picks one.
 */

export interface QueryResult<Row> {
  rows: Row[];
  /** Rows changed by INSERT/UPDATE/DELETE, or returned by SELECT. */
  rowCount: number;
  fields: { name: string; dataTypeId: number }[];
}

export interface Queryable {
  /** One statement, parameters bound ($1, $2 ...). */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
  /** A script of several statements, no parameters. */
  exec(sql: string): Promise<void>;
}

export type Transaction = Queryable;

/** A statement of a pipeline; parameters are sent as text (null for NULL) and typed by the server. */
export interface PipelinedStatement {
  sql: string;
  params: readonly unknown[];
}

export type Unlisten = () => Promise<void>;

export interface ListenOptions {
  /** Called after listening again on a new connection: notices may have been missed. */
  onReconnect?: () => void;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * The statement time-out of API requests (the request context sets it per
   * transaction), in milliseconds; 0 turns it off.
   */
  readonly statementTimeoutMs?: number;
  /** Runs `work` inside BEGIN … COMMIT; any error rolls back and is rethrown. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Runs the statements in order, sent together and answered together (one
   * round trip): the extended protocol's pipeline closed by a single Sync, which
   * PostgreSQL runs as one implicit transaction. Either all take effect or none
   * does, and the first error is thrown. For work whose statements do not
   * depend on each other's results; `transaction` is for the rest.
   */
  pipeline(
    statements: readonly PipelinedStatement[],
  ): Promise<QueryResult<Record<string, unknown>>[]>;
  /**
   * LISTENs to `channel` until the returned function is called. When the
   * listening connection is lost it is reopened and listens again; since
   * notices sent in between are lost, `onReconnect` is called then, so the
   * caller can catch up (reload, rescan) instead of trusting what it knew.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    options?: ListenOptions,
  ): Promise<Unlisten>;
  close(): Promise<void>;
}

/** An error raised by PostgreSQL, with its SQLSTATE and the fields PostgREST maps. */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
  constructor(
    message: string,
    readonly code: string,
    readonly detail: string | undefined,
    readonly hint: string | undefined,
    readonly constraint?: string,
  ) {
    super(message);
  }
}

interface DriverError {
  message?: unknown;
  code?: unknown;
  detail?: unknown;
  hint?: unknown;
  constraint?: unknown;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Normalises a driver's error (pg or PGlite) into a DatabaseError; other errors pass through. */
export function toDatabaseError(error: unknown): unknown {
  if (error instanceof DatabaseError || typeof error !== 'object' || error === null) return error;
  const driverError = error as DriverError;
  const code = optionalString(driverError.code);
  if (!code || !/^[0-9A-Z]{5}$/.test(code)) return error;
  const databaseError = new DatabaseError(
    typeof driverError.message === 'string' ? driverError.message : 'database error',
    code,
    optionalString(driverError.detail),
    optionalString(driverError.hint),
    optionalString(driverError.constraint),
  );
  databaseError.stack = (error as Error).stack;
  return databaseError;
}

/** PostgreSQL type ids whose text form we keep as text in both implementations. */
export const TEXT_TYPE_IDS = {
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  timetz: 1266,
  numeric: 1700,
} as const;

export const INT8_TYPE_ID = 20;

/** int8 as a number when it fits exactly, else as its decimal text. */
export function parseInt8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

/** A pipeline parameter in text form: strings as they are, numbers and booleans as text. */
export function textParameter(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  throw new TypeError(`A pipelined parameter must be text, a number or null, not ${typeof value}`);
}

/** Lets queued I/O callbacks (HTTP sockets, timers) run between database calls. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
