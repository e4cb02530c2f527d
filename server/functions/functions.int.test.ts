import path from 'node:path';
import {
  FunctionsHttpError,
  FunctionsRelayError,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';
import { ROOT_DIR } from '../testing/root-dir';

/**
 * `/functions/v1/<name>` (decision 017), through the official client's
 * `functions.invoke()` and raw HTTP, with the fixtures in
 * server/functions/testing/fixtures (their verify_jwt in testing/config.toml).
 * A function's own answers pass through with their status, headers and body;
 * the gateway's own failures are relay errors (x-relay-error: true).
 */

const FIXTURES = path.join(ROOT_DIR, 'server', 'functions', 'testing', 'fixtures');
const TIMEOUT_MS = 1500;
const MAX_BODY_BYTES = 64 * 1024;
const ABORTED = Symbol.for('cervana.fixtures.fail.aborted');

const env = {
  FUNCTIONS_DIR: FIXTURES,
  FUNCTIONS_TIMEOUT_MS: String(TIMEOUT_MS),
  FUNCTIONS_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
};

let server: TestServer;
let client: SupabaseClient;

beforeAll(async () => {
  server = await startTestServer({ env });
  client = clientFor(server);
});
afterAll(() => server?.close());

function functionUrl(target: TestServer, name: string): string {
  return `${target.url}/functions/v1/${name}`;
}

/** The aborts the `fail` fixture saw (it runs in this process). */
function abortedIds(): string[] {
  return (globalThis as unknown as Record<symbol, string[] | undefined>)[ABORTED] ?? [];
}

async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A relay error as supabase-js reports it: its status and the gateway's `{code, message}`. */
async function relayError(
  error: unknown,
): Promise<{ status: number; body: { code: string; message: string }; headers: Headers }> {
  expect(error).toBeInstanceOf(FunctionsRelayError);
  const response = (error as FunctionsRelayError).context as Response;
  expect(response.headers.get('x-relay-error')).toBe('true');
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { code: string; message: string };
  expect(response.headers.get('sb-error-code')).toBe(body.code);
  return { status: response.status, body, headers: response.headers };
}

async function rawRelayError(
  response: Response,
): Promise<{ status: number; code: string; message: string }> {
  expect(response.headers.get('x-relay-error')).toBe('true');
  const body = (await response.json()) as { code: string; message: string };
  return { status: response.status, ...body };
}

interface Echo {
  method: string;
  url: string;
  pathname: string;
  search: string;
  headers: Record<string, string>;
  body: string;
  remoteAddr: string;
}

describe('invoking a function', () => {
  it('passes the method, path, query, headers and body to the handler', async () => {
    const { data, error, response } = await client.functions.invoke<Echo>('open', {
      body: { name: 'Ada' },
      headers: { 'x-custom': 'yes', 'x-forwarded-for': '6.6.6.6', 'x-real-ip': '6.6.6.6' },
    });
    expect(error).toBeNull();
    expect(response?.status).toBe(200);
    expect(response?.headers.get('x-relay-error')).toBeNull();
    expect(data!.method).toBe('POST');
    expect(data!.pathname).toBe('/open');
    expect(JSON.parse(data!.body)).toEqual({ name: 'Ada' });
    expect(data!.headers['content-type']).toBe('application/json');
    expect(data!.headers['x-custom']).toBe('yes');
    expect(data!.headers.authorization).toBe(`Bearer ${server.anonKey}`);
    expect(data!.headers.apikey).toBe(server.anonKey);
    // The caller's real address (TRUST_PROXY is off): forged forwarding headers are dropped.
    expect(data!.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(data!.headers['x-real-ip']).toBeUndefined();
    expect(data!.headers['x-forwarded-proto']).toBe('http');
    expect(data!.remoteAddr).toBe('127.0.0.1');
  });

  it('gives the function its sub-path and query, and any method', async () => {
    const { data, error } = await client.functions.invoke<Echo>('open/tasks/42?expand=notes', {
      method: 'PATCH',
      body: 'plain text',
    });
    expect(error).toBeNull();
    expect(data!.method).toBe('PATCH');
    expect(data!.pathname).toBe('/open/tasks/42');
    expect(data!.search).toBe('?expand=notes');
    expect(data!.body).toBe('plain text');
    expect(data!.headers['content-type']).toBe('text/plain');

    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const result = await client.functions.invoke<Echo>('open', { method });
      expect(result.error).toBeNull();
      expect(result.data!.method).toBe(method);
    }
  });

  it('returns JSON, text, blobs, form data and event streams as the client parses them', async () => {
    const json = await client.functions.invoke('respond/json?name=Grace');
    expect(json.error).toBeNull();
    expect(json.data).toEqual({ greeting: 'Hello Grace' });

    const text = await client.functions.invoke('respond/status?body=hello&type=text/plain');
    expect(text.data).toBe('hello');

    const blob = await client.functions.invoke('respond/blob');
    expect(blob.data).toBeInstanceOf(Blob);
    expect([...new Uint8Array(await (blob.data as Blob).arrayBuffer())]).toEqual([
      0, 1, 2, 253, 254, 255,
    ]);

    const form = await client.functions.invoke('respond/form');
    expect(form.error).toBeNull();
    expect(form.data).toBeInstanceOf(FormData);
    expect((form.data as FormData).get('field')).toBe('value');
    expect(await ((form.data as FormData).get('file') as File).text()).toBe('file body');

    const stream = await client.functions.invoke('respond/stream?count=4');
    expect(stream.error).toBeNull();
    expect(stream.response?.headers.get('content-type')).toBe('text/event-stream');
    expect(await (stream.data as Response).text()).toBe(
      'data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n',
    );
  });

  it("passes the function's own error statuses through as FunctionsHttpError", async () => {
    const { data, error } = await client.functions.invoke(
      `respond/status?status=418&type=application/json&body=${encodeURIComponent('{"teapot":true}')}`,
    );
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(418);
    expect(response.headers.get('x-relay-error')).toBeNull();
    expect(response.headers.get('x-fixture')).toBe('respond');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ teapot: true });

    // A 500 of the function's own is not a relay error either.
    const own500 = await client.functions.invoke('respond/status?status=500&body=mine');
    expect(own500.error).toBeInstanceOf(FunctionsHttpError);
    expect(await ((own500.error as FunctionsHttpError).context as Response).text()).toBe('mine');

    // Nor is a response made by Deno.serve's onError.
    const guarded = await client.functions.invoke('guarded');
    expect(guarded.error).toBeInstanceOf(FunctionsHttpError);
    const guardedResponse = (guarded.error as FunctionsHttpError).context as Response;
    expect(guardedResponse.status).toBe(500);
    expect(await guardedResponse.json()).toEqual({ handled: 'fixture: handled by onError' });
  });

  it('keeps the headers a function sets, except Set-Cookie and a forged x-relay-error', async () => {
    const response = await fetch(functionUrl(server, 'respond/headers'));
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('x-custom')).toBe('kept');
    expect(response.headers.get('cache-control')).toBe('max-age=60');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('x-relay-error')).toBeNull();
    expect(await response.text()).toBe('with headers');

    const redirect = await fetch(functionUrl(server, 'respond/redirect'), { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://example.com/elsewhere');
  });

  it('passes on a Response made by fetch() (a proxying function)', async () => {
    const { data, error } = await client.functions.invoke<{ status: string }>('respond/proxy', {
      method: 'GET',
    });
    expect(error).toBeNull();
    expect(data!.status).toBe('ok');
  });

  it('serves `export default { fetch }` modules', async () => {
    const { data, error } = await client.functions.invoke('default-export/x', { method: 'GET' });
    expect(error).toBeNull();
    expect(data).toBe('default export saw /default-export/x');
  });
});

describe('verify_jwt', () => {
  it('lets a call with a valid JWT of the project through (anon key, user token)', async () => {
    const anon = await client.functions.invoke<Echo>('echo', { body: { ok: 1 } });
    expect(anon.error).toBeNull();
    expect(anon.data!.pathname).toBe('/echo');

    const userToken = await server.keys.ring.sign(
      { role: 'authenticated', sub: '00000000-0000-4000-8000-000000000001', aud: 'authenticated' },
      { expiresInSeconds: 60 },
    );
    const response = await fetch(functionUrl(server, 'echo'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${userToken}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Echo).headers.authorization).toBe(`Bearer ${userToken}`);
  });

  it('refuses a call without a valid JWT before the function runs', async () => {
    const call = (authorization?: string) =>
      fetch(functionUrl(server, 'echo'), {
        method: 'POST',
        headers: authorization ? { Authorization: authorization } : {},
      }).then(rawRelayError);

    expect(await call()).toEqual({
      status: 401,
      code: 'UNAUTHORIZED_NO_AUTH_HEADER',
      message: 'Missing authorization header',
    });
    const invalid = (code: string) => ({ status: 401, code, message: 'Invalid JWT' });
    expect(await call(`Basic ${Buffer.from('a:b').toString('base64')}`)).toEqual(
      invalid('UNAUTHORIZED_INVALID_JWT_FORMAT'),
    );
    expect(await call('Bearer not-a-jwt')).toEqual(invalid('UNAUTHORIZED_INVALID_JWT_FORMAT'));
    expect(await call('Bearer a.b.c')).toEqual(invalid('UNAUTHORIZED_INVALID_JWT_FORMAT'));

    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.`;
    expect(await call(`Bearer ${unsigned}`)).toEqual(
      invalid('UNAUTHORIZED_UNSUPPORTED_TOKEN_ALGORITHM'),
    );

    const foreignSecret = new TextEncoder().encode('another project secret, 32+ characters long');
    const foreignHs256 = await new SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime('1h')
      .sign(foreignSecret);
    expect(await call(`Bearer ${foreignHs256}`)).toEqual(invalid('UNAUTHORIZED_LEGACY_JWT'));

    const { privateKey } = await generateKeyPair('ES256');
    const foreignEs256 = await new SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setExpirationTime('1h')
      .sign(privateKey);
    expect(await call(`Bearer ${foreignEs256}`)).toEqual(invalid('UNAUTHORIZED_ASYMMETRIC_JWT'));

    // The project's own key (ES256 here), expired.
    const expired = await server.keys.ring.sign({
      role: 'anon',
      iat: Math.floor(Date.now() / 1000) - 120,
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    expect(await call(`Bearer ${expired}`)).toEqual(invalid('UNAUTHORIZED_ASYMMETRIC_JWT'));
  });

  it('reports the refusal to supabase-js as a FunctionsRelayError', async () => {
    const stranger = clientFor(server, { key: 'not-a-jwt' });
    const { data, error } = await stranger.functions.invoke('echo', { body: {} });
    expect(data).toBeNull();
    const { status, body } = await relayError(error);
    expect(status).toBe(401);
    expect(body.code).toBe('UNAUTHORIZED_INVALID_JWT_FORMAT');
  });

  it('lets anyone call a function with verify_jwt = false', async () => {
    const response = await fetch(functionUrl(server, 'open'), { method: 'POST', body: 'hi' });
    expect(response.status).toBe(200);
    const echo = (await response.json()) as Echo;
    expect(echo.body).toBe('hi');
    expect(echo.headers.authorization).toBeUndefined();
  });
});

describe('CORS', () => {
  it('hands the preflight to the function (no JWT needed), which answers it', async () => {
    const response = await fetch(functionUrl(server, 'echo'), {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, x-client-info, apikey, content-type',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-relay-error')).toBeNull();
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization, x-client-info, apikey, content-type',
    );
    expect(await response.text()).toBe('ok');
  });

  it("leaves a function's CORS headers as it sets them", async () => {
    const response = await fetch(functionUrl(server, 'open'), {
      headers: { Origin: 'https://app.example.com' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe(
      'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    );

    const bare = await fetch(functionUrl(server, 'respond/json'), {
      headers: { Origin: 'https://app.example.com' },
    });
    expect(bare.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("makes the gateway's own errors readable from another origin", async () => {
    const response = await fetch(functionUrl(server, 'nowhere'), {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-relay-error');
  });
});

describe('what is not a function', () => {
  it('answers 404 NOT_FOUND for unknown names, folders that are not functions and disabled ones', async () => {
    const { error } = await client.functions.invoke('missing');
    const { status, body } = await relayError(error);
    expect(status).toBe(404);
    expect(body).toEqual({ code: 'NOT_FOUND', message: 'Requested function was not found' });

    const paths = [
      '_shared',
      '_shared/echo.ts',
      'not.a-name',
      'disabled',
      '',
      '..%2F..%2Fpackage.json',
      '.hidden',
      'echo%2F..',
      `${'a'.repeat(65)}`,
      'ECHO',
    ];
    for (const name of paths) {
      const response = await fetch(functionUrl(server, name), { method: 'POST' });
      expect({ name, ...(await rawRelayError(response)) }).toEqual({
        name,
        status: 404,
        code: 'NOT_FOUND',
        message: 'Requested function was not found',
      });
    }
    const bare = await fetch(`${server.url}/functions/v1`);
    expect(bare.status).toBe(404);
    expect(bare.headers.get('x-relay-error')).toBe('true');
  });

  it('answers 405 for a method Supabase does not route to functions', async () => {
    const response = await fetch(functionUrl(server, 'open'), { method: 'PROPFIND' });
    expect(await rawRelayError(response)).toMatchObject({
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
    });
  });
});

describe('a function that fails', () => {
  it.each([
    ['throws', 'fail/throw'],
    ['rejects', 'fail/reject'],
    ['returns something other than a Response', 'fail/not-response'],
    ['throws later from a timer', 'fail/stray-throw'],
    ['leaves a rejected promise unhandled', 'fail/floating-rejection'],
  ])('gets a 500 WORKER_ERROR relay error when it %s, fast', async (_, name) => {
    const started = Date.now();
    const { error } = await client.functions.invoke(name);
    const { status, body } = await relayError(error);
    expect(status).toBe(500);
    expect(body).toEqual({
      code: 'WORKER_ERROR',
      message: 'Function exited due to an error (please check logs)',
    });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
  });

  it('gets a 503 BOOT_ERROR when it cannot load, every time', async () => {
    for (const name of ['boot-fail', 'boot-fail', 'no-serve']) {
      const { error } = await client.functions.invoke(name);
      const { status, body } = await relayError(error);
      expect({ name, status, code: body.code }).toEqual({ name, status: 503, code: 'BOOT_ERROR' });
    }
  });

  it('times out with 504 and aborts the handler’s signal', async () => {
    const started = Date.now();
    const { error } = await client.functions.invoke('fail/hang?id=timeout-1');
    const { status, body } = await relayError(error);
    expect(status).toBe(504);
    expect(body.code).toBe('IDLE_TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    await waitFor(() => abortedIds().includes('timeout-1'));
  });

  it('aborts the handler’s signal when the caller goes away', async () => {
    const controller = new AbortController();
    const call = fetch(functionUrl(server, 'fail/hang?id=left-1'), {
      method: 'POST',
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => abortedIds().includes('left-1'), 1000);
  });

  it('leaves the server healthy', async () => {
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    const again = await client.functions.invoke('respond/json');
    expect(again.error).toBeNull();
  });
});

describe('request bodies', () => {
  it('passes a body up to FUNCTIONS_MAX_BODY_BYTES, declared or streamed', async () => {
    const declared = await client.functions.invoke<{ bytes: number }>('respond/body-size', {
      body: 'x'.repeat(MAX_BODY_BYTES),
    });
    expect(declared.error).toBeNull();
    expect(declared.data).toEqual({ bytes: MAX_BODY_BYTES });

    const streamed = await fetch(functionUrl(server, 'respond/body-size'), {
      method: 'POST',
      body: chunked(MAX_BODY_BYTES, 4096),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.headers.get('x-relay-error')).toBeNull();
    expect(await streamed.json()).toEqual({ bytes: MAX_BODY_BYTES });
  });

  it('refuses a larger body with 413, whether declared or streamed', async () => {
    const declared = await client.functions.invoke('respond/body-size', {
      body: 'x'.repeat(MAX_BODY_BYTES + 1),
    });
    const { status, body } = await relayError(declared.error);
    expect(status).toBe(413);
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');

    const streamed = await fetch(functionUrl(server, 'respond/body-size'), {
      method: 'POST',
      body: chunked(MAX_BODY_BYTES * 4, 8192),
      duplex: 'half',
    } as RequestInit);
    expect(await rawRelayError(streamed)).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

/** A request body without Content-Length: `total` bytes in chunks. */
function chunked(total: number, chunkSize: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      const size = Math.min(chunkSize, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(120));
    },
  });
}

interface EnvReport {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  hasUrl: boolean;
  hasPath: boolean;
  keys: string[];
  listedUsers: boolean | string;
}

describe('Deno.env', () => {
  it("gives the server's URL and keys, and nothing of the process environment", async () => {
    const { data, error } = await client.functions.invoke<EnvReport>('env');
    expect(error).toBeNull();
    expect(data).toEqual({
      url: server.url,
      anonKey: server.anonKey,
      serviceRoleKey: server.serviceRoleKey,
      hasUrl: true,
      hasPath: false,
      keys: ['SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_URL'],
      // The official client, imported through the function's deno.json, reached the server.
      listedUsers: true,
    });
  });

  describe('with a second server in the same process', () => {
    let second: TestServer;
    /** The harness's close() runs once: the drain test closes this server itself. */
    let secondClosed: Promise<void> | undefined;
    beforeAll(async () => {
      second = await startTestServer({ env });
    });
    afterAll(() => secondClosed ?? second?.close());

    it('each server gives its functions its own URL and keys', async () => {
      const [fromFirst, fromSecond] = await Promise.all([
        client.functions.invoke<EnvReport>('env'),
        clientFor(second).functions.invoke<EnvReport>('env'),
      ]);
      expect(second.url).not.toBe(server.url);
      expect(fromFirst.data).toMatchObject({ url: server.url, anonKey: server.anonKey });
      expect(fromSecond.data).toMatchObject({
        url: second.url,
        anonKey: second.anonKey,
        serviceRoleKey: second.serviceRoleKey,
        listedUsers: true,
      });
      expect(second.anonKey).not.toBe(server.anonKey);
    });

    it('lets calls in flight finish when it stops, and refuses new ones meanwhile', async () => {
      const slow = fetch(functionUrl(second, 'fail/slow?ms=700&id=drain-1'), { method: 'POST' });
      await new Promise((resolve) => setTimeout(resolve, 150));
      const closed = (secondClosed = second.close());
      await new Promise((resolve) => setTimeout(resolve, 50));
      const refused = await fetch(functionUrl(second, 'open'), { method: 'POST' });
      expect(await rawRelayError(refused)).toMatchObject({ status: 503, code: 'SHUTTING_DOWN' });
      // The server still answers the API while a function may need it (draining: /health says
      // so with 503, decision 029, yet answers)…
      expect((await fetch(`${second.url}/health`)).status).toBe(503);
      const settings = await fetch(`${second.url}/auth/v1/settings`, {
        headers: { apikey: second.anonKey },
      });
      expect(settings.status).toBe(200);
      const finished = await slow;
      expect(finished.status).toBe(200);
      expect(await finished.text()).toBe('slept 700 ms');
      await closed;
      expect(abortedIds()).not.toContain('drain-1');
    });
  });
});
