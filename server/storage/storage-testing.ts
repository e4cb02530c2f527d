import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { expect } from 'vitest';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Shared by the storage service's integration tests (server/storage/*.int.test.ts):
 * the service-role client, unique bucket names, the shape of a storage error
 * as the official client surfaces it, and what the server really stored
 * (rows in storage.objects, files under <dataDir>/storage).
 */

export async function startStorageServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ env });
}

/** The official client with the service role key (bypasses row-level security). */
export function serviceClient(server: TestServer): SupabaseClient {
  return clientFor(server, { key: server.serviceRoleKey });
}

let counter = 0;
/** A bucket id no other test uses (lower case, digits and dashes). */
export function uniqueBucket(label = 'bucket'): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}`;
}

export function sha256(data: Uint8Array | ArrayBuffer | string): string {
  const hash = createHash('sha256');
  hash.update(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
  return hash.digest('hex');
}

export async function bytesOf(blob: Blob): Promise<Buffer> {
  return Buffer.from(await blob.arrayBuffer());
}

export interface ExpectedStorageError {
  /** The logical status, a string in the body (`"404"`). */
  statusCode: string;
  message: string;
  /** The HTTP status: 400 for every logical 4xx. */
  status?: number;
}

/** A refusal as the official client reports it (StorageApiError). */
export function expectStorageError(error: unknown, expected: ExpectedStorageError): void {
  expect(error, 'expected an error, got success').not.toBeNull();
  const actual = error as { name?: string; message?: string; status?: number; statusCode?: string };
  expect({
    name: actual.name,
    message: actual.message,
    status: actual.status,
    statusCode: actual.statusCode,
  }).toEqual({
    name: 'StorageApiError',
    message: expected.message,
    status: expected.status ?? 400,
    statusCode: expected.statusCode,
  });
}

/** A rejected request's body: the storage error shape with a logical 4xx status. */
export interface StorageErrorBody {
  statusCode: string;
  error: string;
  message: string;
  code?: string;
}

/** Asserts a raw response is a storage error: HTTP 400, a logical 4xx in the body; returns the body. */
export async function expectErrorResponse(
  response: Response,
  statusCode: string | RegExp = /^4\d\d$/,
): Promise<StorageErrorBody> {
  const text = await response.text();
  expect(response.status, text).toBe(400);
  let body: StorageErrorBody;
  try {
    body = JSON.parse(text) as StorageErrorBody;
  } catch {
    throw new Error(`not a JSON error body: ${text}`);
  }
  if (typeof statusCode === 'string') expect(body.statusCode, text).toBe(statusCode);
  else expect(body.statusCode, text).toMatch(statusCode);
  expect(typeof body.error, text).toBe('string');
  expect(typeof body.message, text).toBe('string');
  return body;
}

export function authHeaders(key: string): Record<string, string> {
  return { apikey: key, Authorization: `Bearer ${key}` };
}

/** A plain request to `/storage/v1` + `route` (route starts with `/`). */
export function storageFetch(
  server: TestServer,
  route: string,
  init: RequestInit & { key?: string } = {},
): Promise<Response> {
  const { key, headers, ...rest } = init;
  return fetch(`${server.url}/storage/v1${route}`, {
    ...rest,
    headers: { ...(key ? authHeaders(key) : {}), ...(headers as Record<string, string>) },
  });
}

/** Creates a bucket with the service role and checks the answer. */
export async function createBucket(
  admin: SupabaseClient,
  id: string,
  options: {
    public?: boolean;
    fileSizeLimit?: number | string | null;
    allowedMimeTypes?: string[] | null;
  } = {},
): Promise<string> {
  const { data, error } = await admin.storage.createBucket(id, { public: false, ...options });
  expect(error).toBeNull();
  expect(data).toEqual({ name: id });
  return id;
}

type UploadBody = Parameters<ReturnType<SupabaseClient['storage']['from']>['upload']>[1];
type UploadOptions = Parameters<ReturnType<SupabaseClient['storage']['from']>['upload']>[2];

/** Uploads through the official client and expects success. */
export async function upload(
  client: SupabaseClient,
  bucket: string,
  key: string,
  body: UploadBody,
  options?: UploadOptions,
): Promise<{ id: string; path: string; fullPath: string }> {
  const { data, error } = await client.storage.from(bucket).upload(key, body, options);
  expect(error).toBeNull();
  return data as { id: string; path: string; fullPath: string };
}

export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: Record<string, unknown> | null;
  user_metadata: Record<string, unknown> | null;
  /** ISO 8601 with milliseconds, as the API writes timestamps. */
  created_at: string;
  updated_at: string;
}

/** The rows of a bucket (as the database owner, outside RLS), by name. */
export async function objectRows(server: TestServer, bucket: string): Promise<ObjectRow[]> {
  const { rows } = await server.db.query<
    Omit<ObjectRow, 'created_at' | 'updated_at'> & { created_ms: number; updated_ms: number }
  >(
    `select id::text as id, bucket_id, name, owner::text as owner, owner_id, version, metadata,
            user_metadata,
            floor(extract(epoch from created_at) * 1000)::float8 as created_ms,
            floor(extract(epoch from updated_at) * 1000)::float8 as updated_ms
     from storage.objects where bucket_id = $1 order by name collate "C"`,
    [bucket],
  );
  return rows.map(({ created_ms, updated_ms, ...row }) => ({
    ...row,
    created_at: new Date(Number(created_ms)).toISOString(),
    updated_at: new Date(Number(updated_ms)).toISOString(),
  }));
}

export async function objectRow(
  server: TestServer,
  bucket: string,
  name: string,
): Promise<ObjectRow | undefined> {
  return (await objectRows(server, bucket)).find((row) => row.name === name);
}

export function storageDir(server: TestServer): string {
  return path.join(server.dataDir, 'storage');
}

export function blobsDir(server: TestServer): string {
  return path.join(storageDir(server), 'blobs');
}

export function tmpDir(server: TestServer): string {
  return path.join(storageDir(server), 'tmp');
}

/** Every file under a folder (relative paths, sorted); [] when the folder does not exist. */
export async function filesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(current: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(path.relative(folder, full));
    }
  }
  await walk(folder);
  return found.sort();
}

/** Blob files by name (a blob's file name is the object's version). */
export async function blobNames(server: TestServer): Promise<string[]> {
  return (await filesUnder(blobsDir(server))).map((file) => path.basename(file)).sort();
}

export async function blobSizeOf(server: TestServer, version: string): Promise<number | undefined> {
  for (const file of await filesUnder(blobsDir(server))) {
    if (path.basename(file) === version)
      return (await stat(path.join(blobsDir(server), file))).size;
  }
  return undefined;
}

/** Polls until `check` holds (for effects that follow a response, such as clean-up). */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Nothing of a refused upload remains: no row for it, no new blob, nothing staged. */
export async function expectNothingStored(
  server: TestServer,
  bucket: string,
  blobsBefore: string[],
  names?: string[],
): Promise<void> {
  const rows = await objectRows(server, bucket);
  if (names) {
    expect(rows.filter((row) => names.includes(row.name)).map((row) => row.name)).toEqual([]);
  } else {
    expect(rows.map((row) => row.name)).toEqual([]);
  }
  expect(await blobNames(server)).toEqual(blobsBefore);
  await eventually(
    async () => (await filesUnder(tmpDir(server))).length === 0,
    'the staging folder to be empty',
  );
}

/** Waits until a signed token (a JWT) has expired, whole seconds as JWTs count them. */
export async function waitUntilExpired(token: string): Promise<void> {
  const { exp } = decodeJwt(token);
  if (typeof exp !== 'number') throw new Error('token has no exp');
  const wait = (exp + 1) * 1000 + 100 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** The token in a signed URL's query string. */
export function tokenOf(signedUrl: string): string {
  const token = new URL(signedUrl).searchParams.get('token');
  if (!token) throw new Error(`no token in ${signedUrl}`);
  return token;
}

/** Content-Disposition as (type, file name) — `filename*=UTF-8''…` wins over `filename=`. */
export function parseDisposition(header: string | null): { type: string; filename?: string } {
  if (header === null) return { type: '(none)' };
  const [type = '', ...params] = header.split(';').map((part) => part.trim());
  let filename: string | undefined;
  let extended: string | undefined;
  for (const param of params) {
    const match = /^(filename\*?)=(.*)$/i.exec(param);
    if (!match) continue;
    const value = match[2]!.replace(/^"(.*)"$/, '$1');
    if (match[1]!.endsWith('*')) extended = decodeURIComponent(value.replace(/^UTF-8''/i, ''));
    else filename = decodeURIComponent(value);
  }
  const name = extended ?? filename;
  return name === undefined
    ? { type: type.toLowerCase() }
    : { type: type.toLowerCase(), filename: name };
}

/** Deterministic pseudo-random bytes (so a failure shows the same data again). */
export function patternBytes(size: number, seed = 1): Buffer<ArrayBuffer> {
  const out = Buffer.alloc(size);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < size; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[index] = state & 0xff;
  }
  return out;
}

/**
 * A service-role request over node:http with the path exactly as given (no
 * URL normalisation, unlike fetch). A Buffer body goes with its length; a
 * stream goes chunked (no Content-Length), with back-pressure.
 */
export function rawRequest(
  server: TestServer,
  method: string,
  rawPath: string,
  body?: Buffer | Readable,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: rawPath,
        headers: {
          ...authHeaders(server.serviceRoleKey),
          'Content-Type': 'text/plain',
          ...(Buffer.isBuffer(body) ? { 'Content-Length': String(body.length) } : {}),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body === undefined || Buffer.isBuffer(body)) req.end(body);
    else pipeline(body, req).catch(reject);
  });
}
