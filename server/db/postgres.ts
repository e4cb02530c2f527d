import { DEFAULT_STATEMENT_TIMEOUT_MS } from './request-context';
import pg from 'pg';
import {
  INT8_TYPE_ID,
  TEXT_TYPE_IDS,
  parseInt8,
  toDatabaseError,
  type Database,
  type QueryResult,
  type Queryable,
} from './database';
import { PgPipeline, PgStatementCloser, type TypeParserLookup } from './pg-pipeline';
import { StatementCache } from './statement-cache';

/** The first and the longest wait before listening again on a new connection. */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5000;

const keepText = (text: string): string => text;

/** Per-pool type parsers, so the results match the PGlite implementation. */
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((typeId: number, format?: 'text' | 'binary') => {
    if ((Object.values(TEXT_TYPE_IDS) as number[]).includes(typeId)) return keepText;
    if (typeId === INT8_TYPE_ID) return parseInt8;
    return pg.types.getTypeParser(typeId, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

function toResult<Row>(result: pg.QueryResult): QueryResult<Row> {
  return {
    rows: result.rows as Row[],
    rowCount: result.rowCount ?? result.rows.length,
    fields: result.fields.map((field) => ({ name: field.name, dataTypeId: field.dataTypeID })),
  };
}

function wrap(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      try {
        return toResult<Row>(await target.query({ text: sql, values: params, types: typeParsers }));
      } catch (error) {
        throw toDatabaseError(error);
      }
    },
    async exec(sql: string) {
      try {
        // Without parameters pg uses the simple protocol, which runs several statements.
        await target.query(sql);
      } catch (error) {
        throw toDatabaseError(error);
      }
    },
  };
}

export interface PostgresOptions {
  maxConnections?: number;
  onError?: (error: Error) => void;
  /** The statement time-out of API requests (set per request transaction), in ms; 0: none. */
  statementTimeoutMs?: number;
}

/** Connects a pool to a PostgreSQL server (`DATABASE_URL`). */
export async function openPostgres(
  connectionString: string,
  options: PostgresOptions = {},
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'cervana',
    // Timestamps read and written in UTC whatever the cluster's default, as on Supabase.
    options: '-c TimeZone=UTC',
  });
  // An idle client's error (server restart, network) must not crash the process.
  pool.on('error', (error) => options.onError?.(error));
  // Fail fast on a wrong URL instead of at the first request.
  const probe = await pool.connect().catch((error: unknown) => {
    void pool.end();
    throw toDatabaseError(error);
  });
  probe.release();

  // One connection for every LISTEN, opened by the first caller: concurrent first
  // calls share its promise instead of each opening one (and leaking all but the last).
  let listener: Promise<pg.Client> | undefined;
  let isClosed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectDelayMs = RECONNECT_MIN_MS;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const reconnectHandlers = new Map<string, Set<() => void>>();
  // A channel's LISTEN, until it has run: a second listener of the channel waits
  // for it too, so no caller returns before its notifications can arrive.
  const listening = new Map<string, Promise<unknown>>();

  function getListener(): Promise<pg.Client> {
    if (listener) return listener;
    const opening = (async () => {
      const client = new pg.Client({
        connectionString,
        application_name: 'cervana-listen',
        options: '-c TimeZone=UTC',
      });
      let isLost = false;
      const lost = (error?: Error) => {
        if (error) options.onError?.(error);
        if (isLost) return;
        isLost = true;
        // A connection that ended (a restarted or failed-over database, a proxy's idle
        // cut, a terminated backend) is not kept: listen again on a new one.
        if (listener === opening) {
          listener = undefined;
          listening.clear();
          scheduleReconnect();
        }
      };
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      await client.connect();
      return client;
    })();
    // A connection that failed to open is not kept: the next caller tries again.
    opening.catch(() => {
      if (listener === opening) listener = undefined;
    });
    listener = opening;
    return opening;
  }

  function startListening(client: pg.Client, channel: string): Promise<unknown> {
    const started = client.query(`listen ${pg.escapeIdentifier(channel)}`);
    listening.set(channel, started);
    return started;
  }

  function scheduleReconnect(): void {
    if (isClosed || reconnectTimer || handlers.size === 0) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void reconnect();
    }, reconnectDelayMs);
    reconnectTimer.unref();
    reconnectDelayMs = Math.min(reconnectDelayMs * 2, RECONNECT_MAX_MS);
  }

  async function reconnect(): Promise<void> {
    if (isClosed || handlers.size === 0) return;
    try {
      const client = await getListener();
      const channels = [...handlers.keys()];
      // One after another: a pg client runs one query at a time.
      for (const channel of channels) await startListening(client, channel);
      reconnectDelayMs = RECONNECT_MIN_MS;
      for (const channel of channels) {
        for (const onReconnect of reconnectHandlers.get(channel) ?? []) onReconnect();
      }
    } catch (error) {
      options.onError?.(error as Error);
      // The connection may be fine and one LISTEN not: start over on a new one.
      const failed = listener;
      listener = undefined;
      listening.clear();
      await failed?.then((client) => client.end()).catch(() => undefined);
      scheduleReconnect();
    }
  }

  const queryable = wrap(pool);
  // Named prepared statements of pipelines, per pooled connection (pg reuses its clients).
  const preparedStatements = new WeakMap<pg.PoolClient, StatementCache>();
  return {
    kind: 'postgres',
    statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    ...queryable,
    async transaction(work) {
      const client = await pool.connect().catch((error: unknown) => {
        throw toDatabaseError(error);
      });
      let broken = false;
      try {
        await client.query('begin');
        const result = await work(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {
          broken = true;
        });
        throw toDatabaseError(error);
      } finally {
        client.release(broken);
      }
    },
    async pipeline(statements) {
      const client = await pool.connect().catch((error: unknown) => {
        throw toDatabaseError(error);
      });
      let cache = preparedStatements.get(client);
      if (!cache) {
        cache = new StatementCache();
        preparedStatements.set(client, cache);
      }
      const plan = cache.plan(statements.map((statement) => statement.sql));
      let broken = false;
      try {
        const pipeline = new PgPipeline(
          statements,
          plan,
          typeParsers.getTypeParser as unknown as TypeParserLookup,
        );
        client.query(pipeline as unknown as pg.Submittable);
        const results = await pipeline.done;
        plan.succeeded();
        return results;
      } catch (error) {
        // A server error leaves the connection ready (the Sync ended the implicit transaction).
        broken = !(error as { severity?: unknown }).severity;
        if (!broken) {
          const closer = new PgStatementCloser(plan.failed());
          client.query(closer as unknown as pg.Submittable);
          await closer.done.catch(() => {
            broken = true;
          });
        }
        throw toDatabaseError(error);
      } finally {
        client.release(broken);
      }
    },
    async listen(channel, onNotify, listenOptions) {
      const client = await getListener();
      let channelHandlers = handlers.get(channel);
      if (!channelHandlers) {
        channelHandlers = new Set();
        handlers.set(channel, channelHandlers);
        const started = startListening(client, channel);
        // A LISTEN that failed leaves nothing behind: the next listen() of the channel runs it again.
        started.catch(() => {
          if (handlers.get(channel) === channelHandlers) {
            handlers.delete(channel);
            listening.delete(channel);
          }
        });
      }
      channelHandlers.add(onNotify);
      const onReconnect = listenOptions?.onReconnect;
      if (onReconnect) {
        let channelReconnects = reconnectHandlers.get(channel);
        if (!channelReconnects) {
          channelReconnects = new Set();
          reconnectHandlers.set(channel, channelReconnects);
        }
        channelReconnects.add(onReconnect);
      }
      await listening.get(channel);
      return async () => {
        channelHandlers.delete(onNotify);
        if (onReconnect) reconnectHandlers.get(channel)?.delete(onReconnect);
        if (channelHandlers.size === 0 && handlers.get(channel) === channelHandlers) {
          handlers.delete(channel);
          reconnectHandlers.delete(channel);
          listening.delete(channel);
          const current = await listener?.catch(() => undefined);
          await current?.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
        }
      };
    },
    async close() {
      // Closing twice is harmless (a stop racing a failed start, a test's clean-up).
      if (isClosed) return;
      isClosed = true;
      clearTimeout(reconnectTimer);
      const opened = listener;
      listener = undefined;
      await opened?.then((client) => client.end()).catch(() => undefined);
      await pool.end();
    },
  };
}
