import type { Server } from 'node:http';
import type { Hono } from 'hono';
import type { RealtimeConfig } from '../config';
import type { Database } from '../db/database';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import { Hub } from './hub';
import { startPostgresChanges, syncCapture } from './postgres-changes';
import { createRealtimeRoutes } from './routes';
import { attachRealtimeSockets, type RealtimeSockets } from './socket-server';

/** The Supabase Realtime-compatible service (`/realtime/v1`): one hub, its websocket and its REST API. */
export interface RealtimeService {
  routes: Hono;
  /** Resolves once the hub has started; rejects if it could not. */
  started: Promise<Hub>;
  /** Serves the websocket on this HTTP server's port. */
  attach(server: Server): void;
  close(): Promise<void>;
}

/**
 * Starts the hub in the background (decision 030): its database work (the capture triggers,
 * the changes feed's position, this server's presence row, the bus) is not on the way to the
 * port opening. A websocket or a broadcast that arrives before it has started waits for it;
 * if it cannot start, they are refused with 503 and the failure is logged.
 */
export function startRealtime(options: {
  db: Database;
  ring: KeyRing;
  config: RealtimeConfig;
  logger: Logger;
}): RealtimeService {
  const { db, ring, config, logger } = options;
  const started = (async () => {
    // Capture triggers on exactly the published tables (the event trigger keeps them in step
    // afterwards when the database user may create one).
    await syncCapture(db);
    const changes = await startPostgresChanges({ db, logger });
    const hub = new Hub({ db, ring, logger, config, changes });
    try {
      await hub.start();
    } catch (error) {
      await hub.close().catch(() => undefined);
      throw error;
    }
    return hub;
  })();
  let isClosing = false;
  started.catch((error: unknown) => {
    logger[isClosing ? 'debug' : 'error']({ err: error }, 'realtime did not start');
  });
  let sockets: RealtimeSockets | undefined;
  return {
    routes: createRealtimeRoutes({
      hub: started,
      ring,
      logger,
      maxMessageBytes: config.maxMessageBytes,
    }),
    started,
    attach(server) {
      sockets = attachRealtimeSockets(server, { hub: started, ring, config, logger });
    },
    async close() {
      isClosing = true;
      await sockets?.close();
      // A stop during the start lets it finish (its database calls are in flight), then closes.
      const hub = await started.catch(() => undefined);
      await hub?.close();
    },
  };
}
