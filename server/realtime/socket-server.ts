import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { RealtimeConfig } from '../config';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import type { Connection, Hub } from './hub';
import {
  decodeBinary,
  decodeText,
  encodeText,
  FrameError,
  PROTOCOL_VERSIONS,
  reply,
  type Frame,
  type ProtocolVersion,
} from './protocol';
import { checkToken } from './tokens';

/**
 * The websocket (`GET /realtime/v1/websocket?apikey=…&vsn=…`, contract §5.1),
 * on the HTTP server's port. The handshake checks the API key; each socket
 * then answers heartbeats at once, hands other frames to the hub in order, and
 * is held to the limits: frame size, messages and joins per second, and the
 * bytes it may leave unread (a slow consumer is disconnected).
 */

export const SOCKET_PATH = '/realtime/v1/websocket';

/**
 * Frames one socket may have waiting for the hub at once: room for a client
 * rejoining all its channels after a reconnect, twice over.
 */
function maxWaitingFrames(config: RealtimeConfig): number {
  return Math.max(64, 2 * config.maxChannelsPerSocket);
}

/** Close codes this server uses. */
export const CLOSE = {
  shutdown: 1001,
  malformed: 1007,
  policy: 1008,
  tooLarge: 1009,
  idle: 4000,
} as const;

export interface RealtimeSockets {
  count(): number;
  /** Closes every socket cleanly (1001), so clients reconnect, to another server if there is one. */
  close(): Promise<void>;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  503: 'Service Unavailable',
};

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  const reason = STATUS_TEXT[status] ?? 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

class RateWindow {
  private windowStart = 0;
  private count = 0;
  /** Counts one; returns how many this second so far. */
  hit(now: number): number {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count += 1;
    return this.count;
  }
}

export function attachRealtimeSockets(
  server: Server,
  options: {
    /** The hub, or its start: a socket arriving before it has started waits for it. */
    hub: Hub | Promise<Hub>;
    ring: KeyRing;
    config: RealtimeConfig;
    logger: Logger;
  },
): RealtimeSockets {
  const { ring, config, logger } = options;
  const started = Promise.resolve(options.hub);
  started.catch(() => undefined); // sockets are refused (503) when it failed
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: config.maxMessageBytes,
    perMessageDeflate: false,
    clientTracking: true,
  });
  let closing = false;
  const lastSeen = new Map<WebSocket, number>();

  const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== SOCKET_PATH && url.pathname !== `${SOCKET_PATH}/`) {
      return refuse(socket, 404, `No websocket at ${url.pathname}`);
    }
    // Stopping: the upgrade listener stays, so a late client is told why (and reconnects elsewhere).
    if (closing) return refuse(socket, 503, 'Realtime is restarting, please standby');
    const vsn = url.searchParams.get('vsn') ?? '1.0.0';
    if (!(PROTOCOL_VERSIONS as readonly string[]).includes(vsn)) {
      return refuse(socket, 400, `Unsupported vsn "${vsn}": use 1.0.0 or 2.0.0`);
    }
    const headerKey = request.headers.apikey;
    const apikey =
      url.searchParams.get('apikey') ?? (typeof headerKey === 'string' ? headerKey : '');
    if (apikey === '') return refuse(socket, 401, 'API key is missing');
    const checked = await checkToken(ring, apikey);
    if (!checked.ok) return refuse(socket, 401, checked.message);
    let hub: Hub;
    try {
      hub = await started;
    } catch {
      return refuse(socket, 503, 'Realtime is unavailable');
    }
    if (socket.destroyed) return;
    if (closing) return refuse(socket, 503, 'Realtime is restarting, please standby');
    wss.handleUpgrade(request, socket, head, (ws) => open(ws, vsn as ProtocolVersion, apikey, hub));
  };

  const open = (ws: WebSocket, version: ProtocolVersion, apikey: string, hub: Hub) => {
    const messages = new RateWindow();
    const joins = new RateWindow();
    let queue: Promise<void> = Promise.resolve();
    let waiting = 0;
    const connection: Connection = {
      id: randomUUID(),
      version,
      apikey,
      sendText(text) {
        if (ws.readyState !== WebSocket.OPEN) return;
        ws.send(text);
        checkBuffer();
      },
      sendBinary(data) {
        if (ws.readyState !== WebSocket.OPEN) return;
        ws.send(data, { binary: true });
        checkBuffer();
      },
      close(code, reason) {
        ws.close(code, reason);
      },
    };
    const checkBuffer = () => {
      if (ws.bufferedAmount > config.maxBufferedBytes) {
        logger.warn(
          { socket: connection.id, buffered: ws.bufferedAmount },
          'realtime: a socket that does not read its messages was disconnected',
        );
        ws.terminate();
      }
    };
    const answer = (frame: Frame, status: 'ok' | 'error', response: unknown = {}) => {
      if (frame.ref !== null)
        connection.sendText(encodeText(reply(frame, status, response), version));
    };

    lastSeen.set(ws, Date.now());
    hub.connectionOpened(connection);

    ws.on('message', (data: RawData, isBinary: boolean) => {
      const now = Date.now();
      lastSeen.set(ws, now);
      let frame: Frame;
      try {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        frame = isBinary
          ? decodeBinary(bytes, version)
          : decodeText(bytes.toString('utf8'), version);
      } catch (error) {
        if (!(error instanceof FrameError)) throw error;
        ws.close(CLOSE.malformed, `Malformed frame: ${error.message}`.slice(0, 120));
        return;
      }
      if (frame.topic === 'phoenix') {
        if (frame.event === 'heartbeat') return answer(frame, 'ok');
        return answer(frame, 'error', {
          reason: `Unknown event "${frame.event}" on topic phoenix`,
        });
      }
      const count = messages.hit(now);
      if (count > config.messagesPerSecond) {
        if (count > 2 * config.messagesPerSecond) {
          ws.close(CLOSE.policy, 'Too many messages per second');
          return;
        }
        return answer(frame, 'error', {
          reason: 'ClientRateLimitReached: Too many messages per second',
        });
      }
      if (frame.event === 'phx_join' && joins.hit(now) > config.joinsPerSecond) {
        answer(frame, 'error', { reason: 'ClientJoinRateLimitReached: Too many joins per second' });
        ws.close(CLOSE.policy, 'Too many joins per second');
        return;
      }
      const binary = isBinary ? (frame.payload as Parameters<Hub['handle']>[2]) : undefined;
      // Frames wait their turn; a client that sends faster than its joins can be handled
      // (each may read the database) is cut off rather than queued for without bound.
      if (waiting >= maxWaitingFrames(config)) {
        ws.close(CLOSE.policy, 'Too many messages waiting');
        return;
      }
      waiting += 1;
      queue = queue
        .then(() => hub.handle(connection, frame, binary))
        .catch((error: unknown) => {
          logger.error(
            { err: error, topic: frame.topic, event: frame.event },
            'realtime: frame failed',
          );
          answer(frame, 'error', { reason: 'Unknown Error on Channel' });
        })
        .finally(() => {
          waiting -= 1;
        });
    });
    ws.on('close', () => {
      lastSeen.delete(ws);
      hub.connectionClosed(connection);
    });
    ws.on('error', (error) => {
      // Oversized frames (1009) and protocol errors land here; ws closes the socket itself.
      logger.debug({ err: error, socket: connection.id }, 'realtime: socket error');
    });
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgrade(request, socket, head).catch((error: unknown) => {
      logger.error({ err: error }, 'realtime: handshake failed');
      socket.destroy();
    });
  };
  server.on('upgrade', onUpgrade);

  const sweeper = setInterval(
    () => {
      const cutoff = Date.now() - config.idleTimeoutMs;
      for (const [ws, seen] of lastSeen) {
        if (seen < cutoff) ws.close(CLOSE.idle, 'heartbeat timeout');
      }
    },
    Math.min(5000, config.idleTimeoutMs / 2),
  );
  sweeper.unref();

  return {
    count: () => wss.clients.size,
    async close() {
      closing = true;
      clearInterval(sweeper);
      const closed = [...wss.clients].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            ws.once('close', () => resolve());
            ws.close(CLOSE.shutdown, 'server shutting down');
            setTimeout(() => {
              ws.terminate();
              resolve();
            }, 1000).unref();
          }),
      );
      await Promise.all(closed);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
