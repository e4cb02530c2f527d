import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A small load balancer for tests, behaving as nginx or HAProxy in front of
 * several servers: requests go round-robin over the backends that are up, on
 * kept-alive connections (so a server's drain meets real reused connections).
 *
 * - A backend refusing the connection (stopped, or not listening yet) is
 *   skipped and the request goes to the next one: nothing was sent.
 * - A connection reset or closed before any byte of the response is retried
 *   on another backend only for GET, HEAD and OPTIONS (nginx's
 *   `proxy_next_upstream error` without `non_idempotent`); other methods get 502.
 * - With `retryStatuses`, a GET/HEAD/OPTIONS answered with one of them goes to
 *   the next backend (nginx's `proxy_next_upstream http_503`).
 * - A backend can be marked down (and up) by the test, and with `healthCheck`
 *   the proxy polls each backend's readiness and takes it out while it answers
 *   anything but 200 (HAProxy's `option httpchk`).
 * - `X-Forwarded-For` gets the client's address appended; bodies stream both
 *   ways. Websocket upgrades are not proxied.
 */

export interface TestProxyStats {
  /** Requests received from clients. */
  requests: number;
  /** Attempts that went to another backend after a refused connection. */
  refusedRetries: number;
  /** Idempotent requests retried after a reset before the response. */
  resetRetries: number;
  /** Idempotent requests sent to another backend after a status in `retryStatuses`. */
  statusRetries: number;
  /** Requests sent on a kept-alive connection that an earlier request had used. */
  reusedConnections: number;
  /** Backend responses that said `Connection: close` (a draining server says so on each). */
  closingResponses: number;
  /** Requests answered 502/503 by the proxy itself, or cut off mid-response. */
  failures: number;
  /** Why each failure happened. */
  failureReasons: string[];
}

export interface TestProxy {
  url: string;
  stats: TestProxyStats;
  /** Takes a backend out of rotation (or puts it back). */
  setDown(index: number, down: boolean): void;
  /** Whether each backend currently receives requests. */
  isUp(index: number): boolean;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const result: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name)) result[name] = value;
  }
  return result;
}

export async function startTestProxy(options: {
  /** Backend base URLs (`http://127.0.0.1:port`). */
  backends: string[];
  /** Poll each backend's readiness (`GET path`); 200 puts it in rotation, anything else takes it out. */
  healthCheck?: { path: string; intervalMs: number };
  /**
   * Statuses on which a GET/HEAD/OPTIONS goes to the next backend, if one is left
   * (nginx's `proxy_next_upstream http_503`).
   */
  retryStatuses?: number[];
  /** Most kept-alive connections per backend. */
  maxSockets?: number;
}): Promise<TestProxy> {
  const backends = options.backends.map((url) => {
    const parsed = new URL(url);
    return {
      host: parsed.hostname,
      port: Number(parsed.port),
      markedDown: false,
      healthy: true,
    };
  });
  const agent = new Agent({
    keepAlive: true,
    maxSockets: options.maxSockets ?? 32,
    scheduling: 'lifo',
  });
  const stats: TestProxyStats = {
    requests: 0,
    refusedRetries: 0,
    resetRetries: 0,
    statusRetries: 0,
    reusedConnections: 0,
    closingResponses: 0,
    failures: 0,
    failureReasons: [],
  };
  const retryStatuses = new Set(options.retryStatuses ?? []);
  let next = 0;
  const isUp = (index: number) => !backends[index]!.markedDown && backends[index]!.healthy;

  const failed = new WeakSet<ServerResponse>();
  const fail = (response: ServerResponse, status: number, reason: string) => {
    if (failed.has(response)) return;
    failed.add(response);
    stats.failures += 1;
    stats.failureReasons.push(reason);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
    response.end(`${reason}\n`);
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    stats.requests += 1;
    const method = request.method ?? 'GET';
    const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress]
      .filter(Boolean)
      .join(', ');
    const headers = {
      ...withoutHopByHop(request.headers),
      'x-forwarded-for': forwardedFor,
      'x-forwarded-proto': 'http',
    };
    // A chunked request body stays chunked (Node sets the header when there is no length).
    const tried = new Set<number>();
    let clientGone = false;

    const pick = () => {
      for (let step = 0; step < backends.length; step += 1) {
        const candidate = (next + step) % backends.length;
        if (!tried.has(candidate) && isUp(candidate)) return candidate;
      }
      return -1;
    };

    const attempt = () => {
      const index = pick();
      if (index === -1) {
        fail(response, 502, `no backend left for ${method} ${request.url}`);
        return;
      }
      next = (index + 1) % backends.length;
      tried.add(index);
      const backend = backends[index]!;
      let bodySent = false;
      let responded = false;
      const upstream = httpRequest(
        {
          agent,
          host: backend.host,
          port: backend.port,
          method,
          path: request.url,
          headers,
        },
        (upstreamResponse) => {
          if (
            retryStatuses.has(upstreamResponse.statusCode ?? 0) &&
            IDEMPOTENT.has(method) &&
            pick() !== -1
          ) {
            stats.statusRetries += 1;
            upstreamResponse.resume();
            attempt();
            return;
          }
          responded = true;
          if (upstream.reusedSocket) stats.reusedConnections += 1;
          if (upstreamResponse.headers.connection?.toLowerCase() === 'close')
            stats.closingResponses += 1;
          response.writeHead(
            upstreamResponse.statusCode ?? 502,
            upstreamResponse.statusMessage,
            withoutHopByHop(upstreamResponse.headers),
          );
          upstreamResponse.pipe(response);
          upstreamResponse.once('error', () => undefined);
          upstreamResponse.once('close', () => {
            if (!upstreamResponse.complete)
              fail(response, 502, `backend ${index} cut the response to ${method} ${request.url}`);
          });
        },
      );
      upstream.on('socket', (socket: Socket) => {
        const send = () => {
          bodySent = true;
          if (request.readableEnded) upstream.end();
          else request.pipe(upstream);
        };
        if (socket.connecting) socket.once('connect', send);
        else send();
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (clientGone) return;
        if (responded) {
          if (!response.writableFinished)
            fail(response, 502, `backend ${index}: ${error.code ?? error.message} mid-response`);
          return;
        }
        if (error.code === 'ECONNREFUSED' && !bodySent) {
          stats.refusedRetries += 1;
          attempt();
          return;
        }
        const reset =
          error.code === 'ECONNRESET' ||
          error.code === 'EPIPE' ||
          error.message === 'socket hang up';
        if (reset && IDEMPOTENT.has(method)) {
          stats.resetRetries += 1;
          attempt();
          return;
        }
        fail(
          response,
          502,
          `backend ${index}: ${error.code ?? error.message} before the response to ${method} ${request.url}`,
        );
      });
      response.once('close', () => {
        if (response.writableFinished) return;
        clientGone = true;
        upstream.destroy();
      });
    };
    attempt();
  };

  const server = createServer(handle);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  let checker: NodeJS.Timeout | undefined;
  if (options.healthCheck) {
    const { path, intervalMs } = options.healthCheck;
    const checkAgent = new Agent({ keepAlive: false });
    const check = () => {
      backends.forEach((backend) => {
        const probe = httpRequest(
          { agent: checkAgent, host: backend.host, port: backend.port, path, timeout: intervalMs },
          (answer) => {
            backend.healthy = answer.statusCode === 200;
            answer.resume();
          },
        );
        probe.on('timeout', () => probe.destroy(new Error('timeout')));
        probe.on('error', () => (backend.healthy = false));
        probe.end();
      });
    };
    check();
    checker = setInterval(check, intervalMs);
  }

  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    setDown(index, down) {
      backends[index]!.markedDown = down;
    },
    isUp,
    async close() {
      clearInterval(checker);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
