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
  hub: Hub;
  /** Serves the websocket on this HTTP server's port. */
  attach(server: Server): void;
  close(): Promise<void>;
}

export async function startRealtime(options: {
  db: Database;
  ring: KeyRing;
  config: RealtimeConfig;
  logger: Logger;
}): Promise<RealtimeService> {
  const { db, ring, config, logger } = options;
  // Capture triggers on exactly the published tables (the event trigger keeps them in step
  // afterwards when the database user may create one).
  await syncCapture(db);
  const changes = await startPostgresChanges({ db, logger });
  const hub = new Hub({ db, ring, logger, config, changes });
  await hub.start();
  let sockets: RealtimeSockets | undefined;
  return {
    routes: createRealtimeRoutes({ hub, ring, logger, maxMessageBytes: config.maxMessageBytes }),
    hub,
    attach(server) {
      sockets = attachRealtimeSockets(server, { hub, ring, config, logger });
    },
    async close() {
      await sockets?.close();
      await hub.close();
    },
  };
}
