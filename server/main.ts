/**
 * The process entry. Its first act, before anything else loads: start the embedded database's
 * thread and compile its WebAssembly (decision 030), since opening the database is most of a
 * restart. The thread waits, and `run.ts` (the configuration, then the rest) hands it its data
 * folder, or ends it when DATABASE_URL chose PostgreSQL.
 */
import { startDatabaseThreadEarly } from './db/pglite-early';

startDatabaseThreadEarly(new URL('./db/pglite-worker.mjs', import.meta.url));
await import('./run');
