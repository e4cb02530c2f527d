import type { Logger } from '../logger';
import { yieldToEventLoop, type Database } from './database';

/**
 * The embedded database runs PostgreSQL in single-user mode: no autovacuum worker
 * ever runs, so without this every update and delete would leave its dead rows
 * behind (tables and indexes growing for ever), the planner's statistics would
 * never follow the data, and transaction ids would never be frozen. The server
 * does autovacuum's work itself: every `intervalMs` it runs `VACUUM (ANALYZE)`
 * on each table, one table per statement, so requests waiting for the single
 * connection are served between two tables (decision 031). PostgreSQL has its
 * own autovacuum, so this runs on PGlite only.
 */

export interface VacuumPass {
  tables: number;
  ms: number;
}

/** One pass over every table and materialized view, the system catalogs included. */
export async function vacuumEmbeddedDatabase(
  db: Database,
  shouldStop: () => boolean = () => false,
): Promise<VacuumPass> {
  const started = performance.now();
  const { rows } = await db.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'm')
       and n.nspname <> 'information_schema'
       and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
     order by n.nspname, c.relname`,
  );
  let tables = 0;
  for (const { name } of rows) {
    if (shouldStop()) break;
    try {
      // `exec`: outside any transaction (VACUUM refuses one), with the watchdog's script allowance.
      await db.exec(`vacuum (analyze) ${name}`);
      tables += 1;
    } catch (error) {
      // A table dropped since the list was read is no reason to stop the pass.
      if ((error as { code?: string }).code !== '42P01') throw error;
    }
    await yieldToEventLoop();
  }
  return { tables, ms: Math.round(performance.now() - started) };
}

export interface EmbeddedVacuum {
  /** Runs a pass now (or waits for the one running). */
  runNow(): Promise<VacuumPass | undefined>;
  /** Stops the timer; a pass in progress ends after its current table. */
  stop(): Promise<void>;
}

export function startEmbeddedVacuum(
  db: Database,
  options: { intervalMs: number; logger: Logger },
): EmbeddedVacuum {
  const { logger } = options;
  let stopped = db.kind !== 'pglite' || options.intervalMs <= 0;
  let running: Promise<VacuumPass | undefined> | undefined;

  const run = (): Promise<VacuumPass | undefined> => {
    if (stopped) return Promise.resolve(undefined);
    running ??= vacuumEmbeddedDatabase(db, () => stopped)
      .then(
        (pass) => {
          logger.info(pass, 'vacuumed and analyzed the embedded database');
          return pass;
        },
        (error: unknown) => {
          logger[stopped ? 'debug' : 'warn'](
            { err: error },
            'vacuuming the embedded database failed',
          );
          return undefined;
        },
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const timer = stopped ? undefined : setInterval(() => void run(), options.intervalMs);
  timer?.unref();
  return {
    runNow: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
