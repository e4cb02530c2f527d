import type pg from 'pg';
import { textParameter, type PipelinedStatement, type QueryResult } from './database';

/**
 * A pipeline for node-postgres: several statements sent in one write and
 * answered in one round trip. pg queues one query at a time and waits for each
 * ReadyForQuery; this "submittable" (pg's documented extension point, the one
 * pg-cursor uses) writes Parse/Bind/Describe/Execute for every statement and a
 * single Sync, so the server runs them as one implicit transaction.
 */

type Connection = pg.Connection & {
  stream: { cork?: () => void; uncork?: () => void };
  parse(config: { text: string }): void;
  bind(config: { values: (string | null)[] }): void;
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
        this.statements.forEach(({ sql }, index) => {
          connection.parse({ text: sql });
          connection.bind({ values: values[index]! });
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
