import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabaseKind, type TestServer } from './testing/harness';

let server: TestServer;
let siteDir: string;
const script = `console.log(${JSON.stringify('cervana '.repeat(200))});`;
const audio = Buffer.alloc(100_000, 7);

beforeAll(async () => {
  siteDir = await mkdtemp(path.join(tmpdir(), 'cervana-site-'));
  await mkdir(path.join(siteDir, 'assets'));
  await mkdir(path.join(siteDir, 'audio'));
  await writeFile(
    path.join(siteDir, 'index.html'),
    '<!doctype html><title>Cervana shell</title><div id="root"></div>',
  );
  await writeFile(path.join(siteDir, 'assets', 'app-Ab12Cd34.js'), script);
  await writeFile(path.join(siteDir, 'assets', 'app-Ab12Cd34.js.br'), brotliCompressSync(script));
  await writeFile(path.join(siteDir, 'assets', 'app-Ab12Cd34.js.gz'), gzipSync(script));
  await writeFile(path.join(siteDir, 'robots.txt'), 'User-agent: *\n');
  await writeFile(path.join(siteDir, 'audio', 'call.mp3'), audio);
  await writeFile(
    path.join(siteDir, '.csp.json'),
    JSON.stringify({ scriptHashes: ['sha256-AbC123+/=', 'not-a-hash'] }),
  );
  await writeFile(
    path.join(siteDir, 'shell.html'),
    '<!doctype html><title>shell</title><p>Loading...</p>',
  );
  await mkdir(path.join(siteDir, 'partner'));
  await writeFile(
    path.join(siteDir, 'partner', 'index.html'),
    '<!doctype html><link rel="canonical" href="__SITE_URL__/partner"><h1>Partner page</h1>',
  );
  await writeFile(
    path.join(siteDir, '404.html'),
    '<!doctype html><h1>We could not find that page</h1>',
  );
  await writeFile(
    path.join(siteDir, 'sitemap.xml'),
    '<urlset><url><loc>__SITE_URL__/</loc></url></urlset>',
  );
  server = await startTestServer({
    env: {
      SITE_DIR: siteDir,
      SCHEDULER_URL: 'https://calendly.com/cervana/30min',
      TRUST_PROXY: 'true',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await rm(siteDir, { recursive: true, force: true });
});

function get(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  return fetch(`${server.url}${pathname}`, { method, headers, redirect: 'manual' });
}

describe('pages', () => {
  it('serves every route with no caching: its prerendered page, else the shell', async () => {
    const routes = [
      '/',
      '/partner-portal',
      '/auth',
      '/dashboard',
      '/admin',
      '/demo',
      '/talk-to-sales',
      '/privacy-policy',
    ];
    for (const route of routes) {
      const response = await get(route);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain(route === '/' ? 'Cervana shell' : 'Loading...');
    }
    expect(await (await get('/partner')).text()).toContain('<h1>Partner page</h1>');
  });

  it('fills the site URL into prerendered HTML and the sitemap', async () => {
    expect(await (await get('/partner')).text()).toContain(
      `<link rel="canonical" href="${server.config.siteUrl}/partner">`,
    );
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toMatch(/xml/);
    expect(await sitemap.text()).toBe(
      `<urlset><url><loc>${server.config.siteUrl}/</loc></url></urlset>`,
    );
  });

  it('never serves build metadata', async () => {
    expect((await get('/.csp.json')).status).toBe(404);
  });

  it('answers a path that is not a page with a real 404 carrying the not-found page', async () => {
    const response = await get('/no-such-page');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('We could not find that page');
    expect((await get('/partner/unknown')).status).toBe(404);
  });

  it('answers a missing file with a short 404, not the page', async () => {
    const response = await get('/assets/gone-123.js');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Not Found');
    expect((await get('/index.html')).status).toBe(404);
  });

  it('redirects a trailing slash to the canonical page URL, keeping the query', async () => {
    const response = await get('/partner/?ref=ACME');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/partner?ref=ACME');
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await get('/demo', {}, 'HEAD');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});

describe('assets', () => {
  const asset = '/assets/app-Ab12Cd34.js';

  it('caches hashed assets for a year as immutable', async () => {
    const response = await get(asset);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('etag')).toMatch(/^".+"$/);
  });

  it('serves the brotli or gzip variant the client accepts, and plain otherwise', async () => {
    // fetch() would decode the body itself, so read the raw bytes through node:http.
    const { request } = await import('node:http');
    const raw = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(
          `${server.url}${asset}`,
          { headers: { 'accept-encoding': encoding } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({ headers: response.headers, body: Buffer.concat(chunks) }),
            );
          },
        )
          .on('error', reject)
          .end();
      });
    const br = await raw('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    const gzip = await raw('gzip;q=1, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);
    const identity = await raw('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(script);
  });

  it('answers 304 to a conditional request for an unchanged file', async () => {
    const etag = (await get(asset)).headers.get('etag')!;
    expect((await get(asset, { 'if-none-match': etag })).status).toBe(304);
    expect((await get(asset, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('serves byte ranges, so audio can seek', async () => {
    const response = await get('/audio/call.mp3', { range: 'bytes=100-199' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 100-199/${audio.length}`);
    expect((await response.arrayBuffer()).byteLength).toBe(100);
    const outside = await get('/audio/call.mp3', { range: `bytes=${audio.length + 5}-` });
    expect(outside.status).toBe(416);
    expect((await get('/robots.txt')).headers.get('cache-control')).toBe('public, max-age=3600');
  });
});

describe('security headers', () => {
  it('sends a CSP that allows our origin and the scheduler only, and the usual protections', async () => {
    const response = await get('/');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain('frame-src https://calendly.com');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // The build's inline bootstrap, by hash, and nothing malformed from the file.
    expect(csp).toContain("script-src 'self' 'sha256-AbC123+/=' https://assets.calendly.com");
    expect(csp).not.toContain('not-a-hash');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends the document policies with documents only, not with scripts', async () => {
    const response = await get('/assets/app-Ab12Cd34.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('content-security-policy')).toBeNull();
    expect(response.headers.get('x-frame-options')).toBeNull();
    expect(response.headers.get('permissions-policy')).toBeNull();
  });

  it('adds HSTS when the request came over https through a trusted proxy', async () => {
    const response = await get('/', { 'x-forwarded-proto': 'https' });
    expect(response.headers.get('strict-transport-security')).toBe(
      'max-age=63072000; includeSubDomains',
    );
    expect(response.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });
});

describe('platform endpoints', () => {
  it('GET /config.json gives the public URL and an anon key that verifies against the JWKS', async () => {
    const response = await get('/config.json');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { url: string; anonKey: string; scheduler: unknown };
    expect(Object.keys(body).sort()).toEqual(['anonKey', 'scheduler', 'url']);
    expect(body.url).toBe(server.config.siteUrl);
    expect(body.scheduler).toEqual({
      url: 'https://calendly.com/cervana/30min',
      scriptUrl: 'https://assets.calendly.com/assets/external/widget.js',
    });
    const jwks = createRemoteJWKSet(new URL(`${server.url}/auth/v1/.well-known/jwks.json`));
    const { payload } = await jwtVerify(body.anonKey, jwks);
    expect(payload.role).toBe('anon');
    expect(JSON.stringify(body)).not.toContain(server.serviceRoleKey);
  });

  it('GET /health reports the database it runs on', async () => {
    const response = await get('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      database: { kind: testDatabaseKind(), ok: true },
    });
  });

  it('GET /health/ready says the server is ready (a server route, not a page of the site)', async () => {
    const response = await get('/health/ready');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ready' });
  });

  it('publishes only public keys, cached for ten minutes', async () => {
    const response = await get('/auth/v1/.well-known/jwks.json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=600');
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toHaveProperty('d');
  });

  it('answers unknown non-GET paths with a JSON 404', async () => {
    const response = await fetch(`${server.url}/no-such-endpoint`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});

describe('the Supabase mount points', () => {
  const mounts = ['/auth/v1', '/rest/v1', '/storage/v1', '/realtime/v1'];

  it('answer CORS preflights for the official client from any origin', async () => {
    const requested =
      'apikey, authorization, x-client-info, content-type, x-supabase-api-version, accept-profile, content-profile, prefer, range, x-upsert';
    for (const mount of mounts) {
      const response = await fetch(`${server.url}${mount}/anything`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'PATCH',
          'access-control-request-headers': requested,
        },
      });
      expect(response.status, mount).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
      const allowed = response.headers
        .get('access-control-allow-headers')!
        .toLowerCase()
        .split(',');
      for (const header of requested.split(', ')) expect(allowed).toContain(header);
    }
  });

  it('expose the response headers the client reads', async () => {
    const response = await fetch(`${server.url}/rest/v1/anything`, {
      headers: { origin: 'https://app.example.com' },
    });
    const exposed = response.headers.get('access-control-expose-headers')!;
    for (const header of [
      'Content-Range',
      'X-Total-Count',
      'Link',
      'X-Supabase-Api-Version',
      'Location',
      'ETag',
      'Content-Location',
      'Preference-Applied',
    ]) {
      expect(exposed).toContain(header);
    }
  });

  it('answer /rest/v1 through the lighter path with the same status, headers and body as the general one', async () => {
    // `/%72est/v1/…` is routed to the data API by the general app (the lighter path only takes
    // paths that start with /rest/v1/ as sent), so both paths answer the same request.
    for (const [path, init] of [
      ['/todos?select=id', {}],
      ['/todos', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }],
      ['/rpc/nope', { method: 'PUT' }],
      ['/anything', { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } }],
    ] as const) {
      const answers = await Promise.all(
        ['/rest/v1', '/%72est/v1'].map(async (mount) => {
          const response = await fetch(`${server.url}${mount}${path}`, {
            ...init,
            headers: {
              origin: 'https://app.example.com',
              'x-forwarded-proto': 'https',
              ...init.headers,
            },
          });
          const headers = Object.fromEntries(
            [...response.headers].filter(([name]) => name !== 'date'),
          );
          return { status: response.status, headers, body: await response.text() };
        }),
      );
      expect(answers[0], path).toEqual(answers[1]);
      expect(answers[0]!.headers['content-security-policy'], path).toContain("default-src 'self'");
      expect(answers[0]!.headers['strict-transport-security'], path).toBeDefined();
      expect(answers[0]!.headers['access-control-allow-origin'], path).toBe('*');
    }
  });

  it('exist, answering in their own wire shapes', async () => {
    expect(await (await get('/auth/v1/health')).json()).toMatchObject({ name: 'GoTrue' });
    const rest = await get('/rest/v1/todos');
    expect(rest.status).toBe(404);
    expect(await rest.json()).toEqual(
      expect.objectContaining({ code: expect.any(String), details: null, hint: null }),
    );
    // Storage refuses a request without a token, in its own shape and with HTTP 400.
    const storage = await get('/storage/v1/bucket');
    expect(storage.status).toBe(400);
    expect(await storage.json()).toEqual({
      statusCode: '403',
      code: 'AccessDenied',
      error: 'Unauthorized',
      message: 'Invalid Compact JWS',
    });
  });
});
