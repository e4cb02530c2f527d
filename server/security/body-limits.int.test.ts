import { once } from 'node:events';
import { request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, filesUnder, tmpDir } from '../storage/storage-testing';
import { clientFor, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Security issue 22, finding 5: every route that reads a request body stops at
 * a limit counted while the body streams in. One anonymous 150 MB chunked POST
 * to /rest/v1/rpc stalled /health for seconds and left the memory it buffered;
 * here bodies that never end are sent over raw HTTP (node:http, chunked) to
 * each family of body-reading routes, and must be answered with the
 * service's 413 while the client is still sending, without the server
 * reading (or holding) more than a few megabytes past the limit.
 */

const KB = 1024;
const MB = 1024 * KB;
const CHUNK = Buffer.alloc(64 * KB, 0x61); // "aaaa…": one buffer, written again and again
/** What loopback socket buffers may take in after the server stops reading. */
const SLACK = 16 * MB;
const BOUNDARY = 'endless-boundary-7f3a';

let server: TestServer;
let userToken: string;
let bucket: string;

interface Route {
  name: string;
  method: string;
  path: () => string;
  headers: () => Record<string, string>;
  /** The limit for these headers. */
  limit: number;
  /** Sent before the endless part (a multipart preamble). */
  preamble?: Buffer;
  expectTooLarge(answer: Answer): void;
}

function anonHeaders(): Record<string, string> {
  return { apikey: server.anonKey, Authorization: `Bearer ${server.anonKey}` };
}
function userHeaders(): Record<string, string> {
  return { apikey: server.anonKey, Authorization: `Bearer ${userToken}` };
}
function serviceHeaders(): Record<string, string> {
  return { apikey: server.serviceRoleKey, Authorization: `Bearer ${server.serviceRoleKey}` };
}

function json(answer: Answer): Record<string, unknown> {
  return JSON.parse(answer.body) as Record<string, unknown>;
}

const expectPostgrest = (answer: Answer) => {
  expect(answer.status, answer.body).toBe(413);
  expect(json(answer)).toMatchObject({
    code: 'PGRST102',
    message: 'Request body is too large',
    details: expect.any(String),
  });
  expect(json(answer)).toHaveProperty('hint');
};
const expectGoTrue = (answer: Answer) => {
  expect(answer.status, answer.body).toBe(413);
  expect(json(answer)).toMatchObject({
    code: 'request_entity_too_large',
    message: 'Request body too large',
  });
};
const expectStorageJson = (answer: Answer) => {
  expect(answer.status, answer.body).toBe(413);
  expect(json(answer)).toMatchObject({
    statusCode: '413',
    error: 'Payload too large',
    message: 'Request body is too large',
  });
};
const expectStorageUpload = (answer: Answer) => {
  expect(json(answer), answer.body).toMatchObject({
    statusCode: '413',
    error: 'Payload too large',
    message: 'The object exceeded the maximum allowed size',
  });
};

const ROUTES: Route[] = [
  {
    name: 'auth (POST /auth/v1/signup)',
    method: 'POST',
    path: () => '/auth/v1/signup',
    headers: () => ({ ...anonHeaders(), 'X-Supabase-Api-Version': '2024-01-01' }),
    limit: 256 * KB,
    expectTooLarge: expectGoTrue,
  },
  {
    name: 'rpc by anon (POST /rest/v1/rpc/submit_sales_inquiry)',
    method: 'POST',
    path: () => '/rest/v1/rpc/submit_sales_inquiry',
    headers: anonHeaders,
    limit: 1 * MB,
    expectTooLarge: expectPostgrest,
  },
  {
    name: 'rpc signed in (POST /rest/v1/rpc/submit_sales_inquiry)',
    method: 'POST',
    path: () => '/rest/v1/rpc/submit_sales_inquiry',
    headers: userHeaders,
    limit: 10 * MB,
    expectTooLarge: expectPostgrest,
  },
  {
    name: 'table insert by anon (POST /rest/v1/leads)',
    method: 'POST',
    path: () => '/rest/v1/leads',
    headers: anonHeaders,
    limit: 1 * MB,
    expectTooLarge: expectPostgrest,
  },
  {
    name: 'table update by the service role (PATCH /rest/v1/leads)',
    method: 'PATCH',
    path: () => '/rest/v1/leads?id=eq.00000000-0000-0000-0000-000000000000',
    headers: serviceHeaders,
    limit: 10 * MB,
    expectTooLarge: expectPostgrest,
  },
  {
    name: 'storage JSON (POST /storage/v1/object/list/<bucket>)',
    method: 'POST',
    path: () => `/storage/v1/object/list/${bucket}`,
    headers: serviceHeaders,
    limit: 1 * MB,
    expectTooLarge: expectStorageJson,
  },
  {
    name: 'storage upload (POST /storage/v1/object/<bucket>/<key>)',
    method: 'POST',
    path: () => `/storage/v1/object/${bucket}/endless-${Date.now()}.bin`,
    headers: () => ({ ...serviceHeaders(), 'Content-Type': 'application/octet-stream' }),
    limit: 1 * MB,
    expectTooLarge: expectStorageUpload,
  },
  {
    name: 'storage multipart upload (POST /storage/v1/object/<bucket>/<key>)',
    method: 'POST',
    path: () => `/storage/v1/object/${bucket}/endless-${Date.now()}.bin`,
    headers: () => ({
      ...serviceHeaders(),
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
    }),
    preamble: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="endless.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    limit: 1 * MB,
    expectTooLarge: expectStorageUpload,
  },
  {
    name: 'storage multipart upload, endless after a small file part',
    method: 'POST',
    path: () => `/storage/v1/object/${bucket}/endless-second-${Date.now()}.bin`,
    headers: () => ({
      ...serviceHeaders(),
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
    }),
    preamble: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="small.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\nsmall\r\n' +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="extra"; filename="more.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    // The file limit plus what fields and part headers may take (MULTIPART_OVERHEAD).
    limit: 1 * MB + 20 * 128 * KB + 512 * KB,
    expectTooLarge: expectStorageUpload,
  },
];

beforeAll(async () => {
  server = await startTestServer({ env: { RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000' } });
  const email = uniqueEmail('body-limits');
  const admin = clientFor(server, { key: server.serviceRoleKey });
  const created = await admin.auth.admin.createUser({
    email,
    password: 'a long and unusual passphrase 7',
    email_confirm: true,
  });
  expect(created.error).toBeNull();
  const signedIn = await clientFor(server).auth.signInWithPassword({
    email,
    password: 'a long and unusual passphrase 7',
  });
  expect(signedIn.error).toBeNull();
  userToken = signedIn.data.session!.access_token;
  bucket = `limits-${Date.now().toString(36)}`;
  const made = await admin.storage.createBucket(bucket, { public: false, fileSizeLimit: MB });
  expect(made.error).toBeNull();
});
afterAll(() => server?.close());

interface Answer {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
  /** Bytes the client had written when the answer arrived. */
  sent: number;
  /** Whether the client had finished sending its body when the answer arrived. */
  sentAll: boolean;
}

interface SendOptions {
  /** Stop (and fail) after this many bytes without an answer. */
  cap: number;
  /** Declare this Content-Length (and send only the first chunk of it); else chunked. */
  declared?: number;
  /** A complete body to send with its Content-Length. */
  body?: Buffer;
  /** Called on each write, to sample memory while sending. */
  onWrite?: () => void;
}

/**
 * Sends a body over raw HTTP: a complete one, a declared length of which only
 * the first chunk is ever sent, or an endless chunked one, and resolves with
 * the answer and how much had been sent by then. Fails when no answer comes.
 */
function send(route: Route, headers: Record<string, string>, options: SendOptions) {
  const url = new URL(server.url);
  return new Promise<Answer>((resolve, reject) => {
    let sent = 0;
    let sentAll = false;
    let answered = false;
    let timer: NodeJS.Timeout | undefined;
    const req = request({
      host: url.hostname,
      port: url.port,
      method: route.method,
      path: route.path(),
      headers: {
        'Content-Type': 'application/json',
        ...headers,
        ...(options.body ? { 'Content-Length': String(options.body.length) } : {}),
        ...(options.declared !== undefined ? { 'Content-Length': String(options.declared) } : {}),
      },
    });
    const fail = (error: Error) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    };
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: response.headers,
          sent,
          sentAll,
        });
        req.destroy();
      });
      response.on('error', fail);
    });
    // Once the answer is in, the server may close while we still write: that is the point.
    req.on('error', (error) => {
      if (!answered) setTimeout(() => fail(error), 200);
    });
    const waitForAnswer = (what: string) => {
      timer = setTimeout(
        () => fail(new Error(`${route.name}: no answer ${what} (${sent} bytes sent)`)),
        10_000,
      );
    };
    if (options.body) {
      sent = options.body.length;
      sentAll = true;
      req.end(options.body);
      waitForAnswer('to a complete body');
      return;
    }
    if (route.preamble) {
      sent += route.preamble.length;
      req.write(route.preamble);
    }
    if (options.declared !== undefined) {
      sent += CHUNK.length;
      req.write(CHUNK);
      waitForAnswer('to a declared length over the limit');
      return;
    }
    void (async () => {
      while (!answered && sent < options.cap && !req.destroyed) {
        sent += CHUNK.length;
        options.onWrite?.();
        if (!req.write(CHUNK)) {
          await Promise.race([
            once(req, 'drain').catch(() => undefined),
            new Promise((resolve) => setTimeout(resolve, 250)),
          ]);
        }
      }
      if (!answered) waitForAnswer(`after the cap of ${options.cap} bytes`);
    })();
  });
}

async function health(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/health`);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

describe('request bodies have limits counted while they stream in', () => {
  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    for (const route of ROUTES) {
      const answer = await send(route, route.headers(), {
        declared: 150 * MB,
        cap: 0,
      });
      expect(answer.sentAll, route.name).toBe(false);
      route.expectTooLarge(answer);
    }
  });

  it('cuts off a chunked body that never ends soon after the limit, while it is still being sent', async () => {
    for (const route of ROUTES) {
      const answer = await send(route, route.headers(), { cap: route.limit + 4 * SLACK });
      route.expectTooLarge(answer);
      expect(answer.sentAll, route.name).toBe(false);
      expect(answer.sent, route.name).toBeGreaterThan(route.limit);
      expect(answer.sent, route.name).toBeLessThanOrEqual(route.limit + SLACK);
    }
    // Refused uploads leave nothing staged.
    await eventually(
      async () => (await filesUnder(tmpDir(server))).length === 0,
      'no staged upload left',
    );
  });

  it('does not hold an endless body in memory (the server runs in this process)', async () => {
    const rpc = ROUTES.find((route) => route.name.startsWith('rpc signed in'))!;
    const footprint = () => {
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    global.gc?.();
    const before = footprint();
    let peak = before;
    const answer = await send(rpc, rpc.headers(), {
      cap: 200 * MB,
      onWrite: () => (peak = Math.max(peak, footprint())),
    });
    rpc.expectTooLarge(answer);
    // The limit itself may be buffered (10 MB), not the 200 MB the client was ready to send.
    expect(peak - before).toBeLessThan(rpc.limit + 40 * MB);
    expect(answer.sent).toBeLessThan(rpc.limit + SLACK);
  });

  it('keeps /health answering while several endless bodies are being sent', async () => {
    const routes = ROUTES.filter((route) => route.name.startsWith('rpc'));
    let uploading = true;
    const probes: { status: number; ms: number }[] = [];
    const polling = (async () => {
      while (uploading) {
        probes.push(await health());
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      const answers = await Promise.all(
        [...routes, ...routes].map((route) =>
          send(route, route.headers(), { cap: route.limit + 4 * SLACK }),
        ),
      );
      answers.forEach((answer, index) => routes[index % routes.length]!.expectTooLarge(answer));
    } finally {
      uploading = false;
      await polling;
    }
    probes.push(await health());
    expect(probes.length).toBeGreaterThan(1);
    expect(probes.every((probe) => probe.status === 200)).toBe(true);
    // Generous (two shared cores): buffering and parsing 150 MB stalled it for 4.4 s.
    expect(Math.max(...probes.map((probe) => probe.ms))).toBeLessThan(2_000);
  });

  it('gives anonymous data requests 1 MB and signed-in ones 10 MB, and lets smaller bodies through', async () => {
    const body = (size: number) =>
      Buffer.from(JSON.stringify({ pad: 'x'.repeat(size - 10) }), 'utf8');
    const twoMegabytes = body(2 * MB);
    expect(twoMegabytes.length).toBe(2 * MB);
    const rpc = ROUTES.find((route) => route.name.startsWith('rpc by anon'))!;
    const insert = ROUTES.find((route) => route.name.startsWith('table insert'))!;

    for (const route of [rpc, insert]) {
      rpc.expectTooLarge(await send(route, anonHeaders(), { body: twoMegabytes, cap: 0 }));
      rpc.expectTooLarge(await send(route, anonHeaders(), { cap: 4 * MB }));
      for (const headers of [userHeaders(), serviceHeaders()]) {
        const answer = await send(route, headers, { body: twoMegabytes, cap: 0 });
        // Read and parsed: the function or column `pad` does not exist.
        expect(answer.status, `${route.name}: ${answer.body}`).not.toBe(413);
        expect(answer.status, answer.body).toBeLessThan(500);
        expect(json(answer)).toHaveProperty('code');
      }
      const justUnder = await send(route, anonHeaders(), { body: body(MB), cap: 0 });
      expect(justUnder.status, justUnder.body).not.toBe(413);
    }
    const overTen = body(10 * MB + 1);
    rpc.expectTooLarge(await send(rpc, userHeaders(), { body: overTen, cap: 0 }));

    // Auth and storage JSON: one limit for every role, and a body under it is read.
    const signup = await send(ROUTES[0]!, ROUTES[0]!.headers(), {
      body: Buffer.from(
        JSON.stringify({
          email: uniqueEmail('under-limit'),
          password: 'a long and unusual passphrase 7',
          data: { note: 'x'.repeat(200 * KB) },
        }),
      ),
      cap: 0,
    });
    expect(signup.status, signup.body).not.toBe(413);
    expect(signup.status, signup.body).toBeLessThan(500);
    const list = await send(ROUTES[5]!, ROUTES[5]!.headers(), {
      body: Buffer.from(JSON.stringify({ prefix: '', search: 'x'.repeat(900 * KB) })),
      cap: 0,
    });
    expect(list.status, list.body).not.toBe(413);
    expect(list.status, list.body).toBeLessThan(500);
  });
});
