import type pg from 'pg';
import { textParameter, type PipelinedStatement, type QueryResult } from './database';
import type { StatementPlan } from './statement-cache';

/**
 * A pipeline for node-postgres: several statements sent in one write and
 * answered in one round trip. pg queues one query at a time and waits for each
 * ReadyForQuery; this "submittable" (pg's documented extension point, the one
 * pg-cursor uses) writes Parse/Bind/Describe/Execute for every statement and a
 * single Sync, so the server runs them as one implicit transaction.
 */

type Connection = pg.Connection & {
  stream: { cork?: () => void; uncork?: () => void };
  parse(config: { name: string; text: string }): void;
  bind(config: { statement: string; values: (string | null)[] }): void;
  close(config: { type: 'S'; name: string }): void;
  describe(config: { type: 'P' }): void;
  execute(config: { rows: number }): void;
  sync(): void;
};

interface FieldMessage {
  name: string;
  dataTypeID: number;
  format: string;
}

type Parse = (text: string) => unknown;

export type TypeParserLookup = (typeId: number, format: 'text') => Parse;

export class PgPipeline {
  private readonly results: QueryResult<Record<string, unknown>>[] = [];
  private current: { fields: FieldMessage[]; parsers: Parse[]; rows: Record<string, unknown>[] } = {
    fields: [],
    parsers: [],
    rows: [],
  };
  private error: unknown;
  private finished = false;
  readonly done: Promise<QueryResult<Record<string, unknown>>[]>;
  private settle!: {
    resolve: (results: QueryResult<Record<string, unknown>>[]) => void;
    reject: (error: unknown) => void;
  };

  constructor(
    private readonly statements: readonly PipelinedStatement[],
    private readonly plan: StatementPlan,
    private readonly typeParser: TypeParserLookup,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  /** Called by pg when the connection is ours; an error returned here is reported through handleError. */
  submit(connection: Connection): Error | undefined {
    try {
      const values = this.statements.map(({ params }) => params.map(textParameter));
      connection.stream.cork?.();
      try {
        for (const name of this.plan.close) connection.close({ type: 'S', name });
        this.statements.forEach(({ sql }, index) => {
          const { name, parse } = this.plan.steps[index]!;
          if (parse) connection.parse({ name, text: sql });
          connection.bind({ statement: name, values: values[index]! });
          connection.describe({ type: 'P' });
          connection.execute({ rows: 0 });
        });
        connection.sync();
      } finally {
        connection.stream.uncork?.();
      }
      return undefined;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  handleRowDescription(message: { fields: FieldMessage[] }): void {
    this.current.fields = message.fields;
    this.current.parsers = message.fields.map((field) => this.typeParser(field.dataTypeID, 'text'));
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const row: Record<string, unknown> = {};
    const { fields, parsers } = this.current;
    message.fields.forEach((text, index) => {
      row[fields[index]!.name] = text === null ? null : parsers[index]!(text);
    });
    this.current.rows.push(row);
  }

  handleCommandComplete(message: { text: string }): void {
    const count = Number(/(\d+)$/.exec(message.text)?.[1]);
    this.results.push({
      rows: this.current.rows,
      rowCount: Number.isFinite(count) ? count : this.current.rows.length,
      fields: this.current.fields.map((field) => ({
        name: field.name,
        dataTypeId: field.dataTypeID,
      })),
    });
    this.current = { fields: [], parsers: [], rows: [] };
  }

  handleEmptyQuery(): void {
    this.results.push({ rows: [], rowCount: 0, fields: [] });
  }

  handlePortalSuspended(): void {}

  /**
   * A server error (the server skips the rest of the pipeline up to the Sync)
   * or a broken connection. pg lets go of the query at once on an error, so it
   * settles now; the connection takes no new query until the Sync's
   * ReadyForQuery arrives.
   */
  handleError(error: unknown): void {
    this.error ??= error;
    this.finish();
  }

  handleReadyForQuery(): void {
    this.finish();
  }

  handleCopyInResponse(connection: Connection & { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('COPY is not supported in a pipeline');
  }

  handleCopyData(): void {}

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.error !== undefined) this.settle.reject(this.error);
    else this.settle.resolve(this.results);
  }
}

/** Closes prepared statements (closing one that does not exist is no error). */
export class PgStatementCloser {
  readonly done: Promise<void>;
  private settle!: { resolve: () => void; reject: (error: unknown) => void };
  private settled = false;

  constructor(private readonly names: readonly string[]) {
    this.done = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  submit(connection: Connection): Error | undefined {
    connection.stream.cork?.();
    try {
      for (const name of this.names) connection.close({ type: 'S', name });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return undefined;
  }

  handleError(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.settle.reject(error);
  }

  handleReadyForQuery(): void {
    if (this.settled) return;
    this.settled = true;
    this.settle.resolve();
  }
}
