import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * Lets an HTTP server stop without dropping a request (decision 029).
 *
 * Node's own `server.close()` closes every keep-alive connection its parser
 * sees as idle, at once: a request the client sent just before (still on the
 * wire, or in the kernel's buffer) then meets a reset. Here the listening
 * socket closes alone, and each connection is followed from its requests
 * ('request' to the response's 'finish'): during the drain every response says
 * `Connection: close` (Node then ends the connection after it, and the client
 * knows not to send another), and a connection that is idle between requests
 * is closed only once no byte arrived on it for IDLE_GRACE_MS, so a request
 * already on its way is answered first.
 */

/**
 * How long a connection must have been quiet, during the drain, before it is
 * closed as idle: longer than a request already sent takes to arrive (loopback,
 * a LAN, a load balancer next door), short enough not to slow a stop. The
 * default of `SHUTDOWN_IDLE_GRACE_MS`; a client farther away needs more.
 */
export const IDLE_GRACE_MS = 250;
const SWEEP_INTERVAL_MS = 25;

interface Connection {
  socket: Socket;
  /** Requests read (or being read) whose response has not finished. */
  inFlight: number;
  /** Responses not yet finished, to mark `Connection: close` when the drain starts. */
  responses: Set<ServerResponse>;
  /** `socket.bytesRead` when it last became idle, and when. */
  bytesWhenIdle: number;
  idleSince: number;
  /** Handed to the websocket server, which closes it itself (1001). */
  upgraded: boolean;
}

export interface ConnectionDrain {
  isDraining(): boolean;
  /** Connections open now (websockets included). */
  count(): number;
  /**
   * Starts the drain: responses say `Connection: close`, idle connections close
   * once quiet. Resolves when the last connection has closed.
   */
  drain(): Promise<void>;
  /** Closes the listening socket only: new connections are refused, open ones stay. */
  stopListening(): void;
  /** The shutdown timeout: ends every connection still open. */
  closeAll(): void;
}

export function trackConnections(
  server: Server,
  options: { idleGraceMs?: number } = {},
): ConnectionDrain {
  const idleGraceMs = options.idleGraceMs ?? IDLE_GRACE_MS;
  const connections = new Map<Socket, Connection>();
  let draining = false;
  let drainStartedAt = 0;
  let sweeper: NodeJS.Timeout | undefined;
  let onEmpty: (() => void) | undefined;

  const becameIdle = (connection: Connection) => {
    connection.bytesWhenIdle = connection.socket.bytesRead;
    connection.idleSince = Date.now();
  };

  const sweep = () => {
    const now = Date.now();
    for (const connection of connections.values()) {
      if (connection.upgraded || connection.inFlight > 0) continue;
      // Bytes since the last response: the next request's headers are arriving ('request' not
      // emitted yet). Count the quiet time from now.
      if (connection.socket.bytesRead !== connection.bytesWhenIdle) {
        becameIdle(connection);
        continue;
      }
      if (now - Math.max(connection.idleSince, drainStartedAt) >= idleGraceMs) {
        connection.socket.destroy();
      }
    }
  };

  server.on('connection', (socket: Socket) => {
    const connection: Connection = {
      socket,
      inFlight: 0,
      responses: new Set(),
      bytesWhenIdle: 0,
      idleSince: Date.now(),
      upgraded: false,
    };
    connections.set(socket, connection);
    socket.once('close', () => {
      connections.delete(socket);
      if (connections.size === 0) onEmpty?.();
    });
  });

  // First in line, so the header is set before the app (@hono/node-server) writes the head.
  server.prependListener('request', (request, response) => {
    const connection = connections.get(request.socket);
    if (!connection) return;
    connection.inFlight += 1;
    connection.responses.add(response);
    if (draining) response.setHeader('Connection', 'close');
    let done = false;
    const finished = () => {
      if (done) return;
      done = true;
      connection.inFlight -= 1;
      connection.responses.delete(response);
      if (connection.inFlight === 0) becameIdle(connection);
    };
    // 'finish': every byte handed to the OS; 'close': also when the client went away first.
    response.once('finish', finished);
    response.once('close', finished);
  });

  server.prependListener('upgrade', (request) => {
    const connection = connections.get(request.socket);
    if (connection) connection.upgraded = true;
  });

  return {
    isDraining: () => draining,
    count: () => connections.size,
    drain() {
      if (!draining) {
        draining = true;
        drainStartedAt = Date.now();
        for (const connection of connections.values()) {
          for (const response of connection.responses) {
            if (!response.headersSent) response.setHeader('Connection', 'close');
          }
        }
        sweeper = setInterval(sweep, SWEEP_INTERVAL_MS);
        sweeper.unref();
      }
      return new Promise<void>((resolve) => {
        const previous = onEmpty;
        onEmpty = () => {
          previous?.();
          clearInterval(sweeper);
          resolve();
        };
        if (connections.size === 0) onEmpty();
      });
    },
    stopListening() {
      if (!server.listening) return;
      // net.Server's close, not http.Server's: the latter also closes every connection its
      // parser sees as idle, which resets a request still on the wire (see above).
      NetServer.prototype.close.call(server);
    },
    closeAll() {
      for (const connection of connections.values()) connection.socket.destroy();
    },
  };
}
