import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig, type Config } from '../config';
import { loadKeys, type Keys } from '../keys/load-keys';
import { createLogger, type Logger } from '../logger';
import { cloneTestDatabase, type TestDatabase } from '../testing/harness';
import { ROOT_DIR } from '../testing/root-dir';
import { startRealtime } from './service';

/**
 * Realtime starts after the port opens (decision 030): a broadcast or a socket that arrives
 * while it is starting waits for it, and one that arrives when it could not start is refused
 * with 503, never left hanging.
 */

let dataDir: string;
let config: Config;
let keys: Keys;
let logger: Logger;
const databases: TestDatabase[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cervana-realtime-start-'));
  config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { rootDir: ROOT_DIR });
  keys = await loadKeys(config);
  logger = await createLogger(config.log);
});
afterAll(async () => {
  await Promise.all(databases.map((database) => database.drop()));
  await rm(dataDir, { recursive: true, force: true });
});

async function database(): Promise<TestDatabase> {
  const cloned = await cloneTestDatabase();
  databases.push(cloned);
  return cloned;
}

function broadcastRequest() {
  return {
    method: 'POST',
    headers: { apikey: keys.serviceRoleKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ messages: [{ topic: 'starting', event: 'ping', payload: { n: 1 } }] }),
  };
}

async function listening(service: ReturnType<typeof startRealtime>): Promise<Server> {
  const server = createServer((_request, response) => response.end());
  service.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Opens a realtime socket; resolves with "open" or the refusal's status line. */
function connect(server: Server): Promise<string> {
  const address = server.address() as { port: number };
  return new Promise((resolve) => {
    const socket = new WebSocket(
      `ws://127.0.0.1:${address.port}/realtime/v1/websocket?apikey=${keys.anonKey}&vsn=1.0.0`,
    );
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(`refused ${response.statusCode}`);
      socket.terminate();
    });
    socket.on('error', (error) => resolve(`error ${error.message}`));
  });
}

describe('realtime while it starts', () => {
  it('holds a broadcast and a socket that arrive during the start, then serves them', async () => {
    const { db } = await database();
    const service = startRealtime({ db, ring: keys.ring, config: config.realtime, logger });
    let hasStarted = false;
    void service.started.then(() => (hasStarted = true));
    const server = await listening(service);
    try {
      // Both sent at once, before the hub has done any of its database work.
      const answered = service.routes.request('/api/broadcast', broadcastRequest());
      const opened = connect(server);
      expect(hasStarted).toBe(false);
      const response = await answered;
      expect(hasStarted).toBe(true);
      expect(response.status).toBe(202);
      expect(await opened).toBe('open');
    } finally {
      await service.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a broadcast and a socket with 503 when it could not start', async () => {
    const broken = await database();
    await broken.db.close(); // every statement of the start fails
    const service = startRealtime({
      db: broken.db,
      ring: keys.ring,
      config: config.realtime,
      logger,
    });
    await expect(service.started).rejects.toThrow();
    const server = await listening(service);
    try {
      const response = await service.routes.request('/api/broadcast', broadcastRequest());
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ message: 'Realtime is unavailable' });
      expect(await connect(server)).toBe('refused 503');
    } finally {
      await service.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
