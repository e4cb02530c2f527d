import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientFor } from '../testing/clients';
import { ROOT_DIR } from '../testing/root-dir';
import {
  cloneTestDatabase,
  testDatabaseKind,
  type TestDatabase,
  type TestServer,
} from '../testing/harness';
import { startServerProcess, type ServerProcess } from '../testing/server-process';
import {
  authHeaders,
  blobNames,
  blobsDir,
  createBucket,
  eventually,
  expectNothingStored,
  filesUnder,
  objectRow,
  rawRequest,
  patternBytes,
  serviceClient,
  sha256,
  startStorageServer,
  uniqueBucket,
  upload,
} from './storage-testing';

/**
 * Big objects: a 200 MB upload and download stream through the server with
 * flat memory (the server runs in this process, so this process's memory is
 * the server's), and an upload cut off by the client or by killing the
 * server leaves nothing half-written: no row, no blob, nothing staged.
 */

const MiB = 1024 * 1024;
const BIG_CHUNKS = 200;
const BIG_SIZE = BIG_CHUNKS * MiB;
/** How far memory may grow while 200 MB pass through: far below the object's size. */
const MEMORY_GROWTH_LIMIT = 80 * MiB;

let server: TestServer;
let admin: SupabaseClient;
let workDir: string;
let bigFile: string;
let bigSha = '';

/** One MiB of pattern, varied per chunk so no two chunks are equal. */
const baseChunk = patternBytes(MiB, 99);
function chunkAt(index: number): Buffer<ArrayBuffer> {
  const chunk = Buffer.from(baseChunk);
  chunk.writeUInt32BE(index, 0);
  chunk.writeUInt32BE(Math.imul(index, 2654435761) >>> 0, MiB - 4);
  return chunk;
}

beforeAll(async () => {
  server = await startStorageServer();
  admin = serviceClient(server);
  workDir = await mkdtemp(path.join(tmpdir(), 'cervana-storage-big-'));
  bigFile = path.join(workDir, 'big.bin');
  const hash = createHash('sha256');
  const handle = await open(bigFile, 'w');
  try {
    for (let index = 0; index < BIG_CHUNKS; index += 1) {
      const chunk = chunkAt(index);
      hash.update(chunk);
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  bigSha = hash.digest('hex');
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** Waits until the server has uploaded every sample recording; how many there are. */
async function sampleRecordingsUploaded(client: SupabaseClient): Promise<number> {
  const files = await readdir(path.join(ROOT_DIR, 'supabase', 'sample-recordings'));
  const expected = files.filter((name) => name.endsWith('.mp3')).length;
  await vi.waitFor(
    async () => {
      const { data } = await client.storage.from('call-recordings').list('samples');
      expect(data ?? []).toHaveLength(expected);
    },
    { timeout: 20_000, interval: 100 },
  );
  return expected;
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Samples this process's memory until stopped; returns the largest growth over the baseline. */
function watchMemory(): { stop(): { rss: number; arrayBuffers: number } } {
  collectGarbage();
  const baseline = process.memoryUsage();
  let rss = 0;
  let arrayBuffers = 0;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss - baseline.rss);
    arrayBuffers = Math.max(arrayBuffers, now.arrayBuffers - baseline.arrayBuffers);
  };
  const timer = setInterval(sample, 20);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { rss, arrayBuffers };
    },
  };
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A chunked upload of a file (no Content-Length), with back-pressure. */
function streamUpload(route: string, file: string): Promise<{ status: number; text: string }> {
  return rawRequest(server, 'POST', route, createReadStream(file), {
    'Content-Type': 'application/octet-stream',
    'Cache-Control': 'max-age=3600',
    'x-upsert': 'false',
  });
}

describe('a 200 MB object', () => {
  let bucket: string;

  beforeAll(async () => {
    bucket = await createBucket(admin, uniqueBucket('big'));
  });

  it('uploads as a stream with flat memory and is stored byte for byte', async () => {
    // Sent with node:http, which honours back-pressure: fetch (undici, Node 20) keeps
    // the whole body of a first large streamed request alive in the sending process
    // (measured: ~200 MB against a server that only counts bytes), and here the
    // sending process is the server's.
    const memory = watchMemory();
    const answer = await streamUpload(`/storage/v1/object/${bucket}/recordings/big.bin`, bigFile);
    const growth = memory.stop();
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({
      Id: expect.any(String),
      Key: `${bucket}/recordings/big.bin`,
    });
    expect(growth.rss, `rss grew by ${Math.round(growth.rss / MiB)} MiB`).toBeLessThan(
      MEMORY_GROWTH_LIMIT,
    );
    expect(
      growth.arrayBuffers,
      `arrayBuffers grew by ${Math.round(growth.arrayBuffers / MiB)} MiB`,
    ).toBeLessThan(MEMORY_GROWTH_LIMIT);

    const row = (await objectRow(server, bucket, 'recordings/big.bin'))!;
    expect(row.metadata!.size).toBe(BIG_SIZE);
    const blobFile = (await filesUnder(blobsDir(server))).find(
      (file) => path.basename(file) === row.version,
    );
    expect(blobFile).toBeDefined();
    const blobPath = path.join(blobsDir(server), blobFile!);
    expect((await stat(blobPath)).size).toBe(BIG_SIZE);
    expect(await sha256OfFile(blobPath)).toBe(bigSha);
  }, 180_000);

  it('downloads as a stream with flat memory, byte for byte', async () => {
    const memory = watchMemory();
    const { data, error } = await admin.storage
      .from(bucket)
      .download('recordings/big.bin')
      .asStream();
    expect(error).toBeNull();
    const hash = createHash('sha256');
    let size = 0;
    const reader = data!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      hash.update(value);
    }
    const growth = memory.stop();
    expect(size).toBe(BIG_SIZE);
    expect(hash.digest('hex')).toBe(bigSha);
    expect(growth.rss, `rss grew by ${Math.round(growth.rss / MiB)} MiB`).toBeLessThan(
      MEMORY_GROWTH_LIMIT,
    );
    expect(growth.arrayBuffers).toBeLessThan(MEMORY_GROWTH_LIMIT);
  }, 180_000);

  it('serves a range from the middle of it', async () => {
    const start = 150 * MiB + 10;
    const response = await fetch(`${server.url}/storage/v1/object/${bucket}/recordings/big.bin`, {
      headers: { ...authHeaders(server.serviceRoleKey), Range: `bytes=${start}-${start + 99}` },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${start + 99}/${BIG_SIZE}`);
    const body = Buffer.from(await response.arrayBuffer());
    const expected = chunkAt(150).subarray(10, 110);
    expect(sha256(body)).toBe(sha256(expected));
  });
});

describe('an upload cut off by the client', () => {
  it('leaves no row, no blob and nothing staged', async () => {
    const bucket = await createBucket(admin, uniqueBucket('aborted'));
    const blobsBefore = await blobNames(server);
    const staging = path.join(server.dataDir, 'storage', 'tmp');
    const controller = new AbortController();
    let sent = 0;
    async function* body(): AsyncGenerator<Buffer> {
      for (let index = 0; index < 100; index += 1) {
        yield chunkAt(index);
        sent += MiB;
        if (index === 8) {
          // The server is writing the upload somewhere: now cut it off.
          await eventually(async () => (await filesUnder(staging)).length > 0, 'a staged upload');
          controller.abort();
          await new Promise<never>(() => undefined);
        }
      }
    }
    await expect(
      fetch(`${server.url}/storage/v1/object/${bucket}/cut/off.bin`, {
        method: 'POST',
        headers: {
          ...authHeaders(server.serviceRoleKey),
          'Content-Type': 'application/octet-stream',
        },
        body: body() as unknown as BodyInit,
        signal: controller.signal,
        duplex: 'half',
      } as RequestInit),
    ).rejects.toThrow();
    expect(sent).toBeGreaterThanOrEqual(9 * MiB);
    expect(sent).toBeLessThan(BIG_SIZE);
    await expectNothingStored(server, bucket, blobsBefore);
    expect((await admin.storage.from(bucket).exists('cut/off.bin')).data).toBe(false);
    // The name is free: a complete upload now succeeds.
    await upload(admin, bucket, 'cut/off.bin', 'complete');
  });
});

describe('an upload cut off by killing the server', () => {
  let folder: string;
  let dataDir: string;
  let siteDir: string;
  let postgres: TestDatabase | undefined;
  let postgresUrl = '';

  function startProcess(): Promise<ServerProcess> {
    return startServerProcess({
      dataDir,
      siteDir,
      readyTimeoutMs: 45_000,
      ...(postgres ? { databaseUrl: postgresUrl } : {}),
    });
  }

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'cervana-storage-kill-'));
    dataDir = path.join(folder, 'data');
    siteDir = path.join(folder, 'site');
    await mkdir(siteDir);
    await writeFile(path.join(siteDir, 'index.html'), '<!doctype html><title>shell</title>');
    if (testDatabaseKind() === 'postgres') {
      postgres = await cloneTestDatabase({ empty: true });
      const { rows } = await postgres.db.query<{ url: string }>(
        `select 'postgres://postgres@127.0.0.1:' || current_setting('port') || '/' || current_database() as url`,
      );
      postgresUrl = rows[0]!.url;
    }
  });
  afterAll(async () => {
    await postgres?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('leaves nothing half-written, and a restart clears what was staged', async () => {
    const first = await startProcess();
    let second: ServerProcess | undefined;
    try {
      const keys = JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as {
        serviceRoleKey: string;
      };
      const client = clientFor({ url: first.url, anonKey: keys.serviceRoleKey });
      const bucket = uniqueBucket('killed');
      expect((await client.storage.createBucket(bucket)).error).toBeNull();
      const kept = patternBytes(MiB, 5);
      expect((await client.storage.from(bucket).upload('kept.bin', kept)).error).toBeNull();
      // A fresh data folder gives new workspaces sample calls, so the server uploads their
      // recordings when it starts: counted once they are all there.
      const samples = await sampleRecordingsUploaded(client);
      const storage = path.join(dataDir, 'storage');
      const blobsBefore = (await filesUnder(path.join(storage, 'blobs'))).map((file) =>
        path.basename(file),
      );
      expect(blobsBefore).toHaveLength(1 + samples);

      // A chunked upload that never finishes: the server is killed part-way.
      const url = new URL(first.url);
      const pending = request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: `/storage/v1/object/${bucket}/half.bin`,
        headers: {
          ...authHeaders(keys.serviceRoleKey),
          'Content-Type': 'application/octet-stream',
          'Transfer-Encoding': 'chunked',
        },
      });
      const ended = new Promise<string>((resolve) => {
        pending.on('error', (error) => resolve(`error: ${error.message}`));
        pending.on('response', (response) => resolve(`answered ${response.statusCode}`));
      });
      for (let index = 0; index < 16; index += 1) pending.write(chunkAt(index));
      await eventually(
        async () => {
          const staged = await filesUnder(path.join(storage, 'tmp'));
          if (staged.length === 0) return false;
          const sizes = await Promise.all(
            staged.map((file) => stat(path.join(storage, 'tmp', file)).then((info) => info.size)),
          );
          return sizes.some((size) => size > 0);
        },
        'the upload to be staged',
        20_000,
      );
      first.child.kill('SIGKILL');
      await first.exited;
      expect(await ended).toMatch(/^error: /);

      if (postgres) {
        const { rows } = await postgres.db.query(
          `select name from storage.objects where bucket_id = $1 order by name`,
          [bucket],
        );
        expect(rows).toEqual([{ name: 'kept.bin' }]);
      }

      second = await startProcess();
      expect(await filesUnder(path.join(storage, 'tmp'))).toEqual([]);
      expect(
        (await filesUnder(path.join(storage, 'blobs'))).map((file) => path.basename(file)),
      ).toEqual(blobsBefore);
      const again = clientFor({ url: second.url, anonKey: keys.serviceRoleKey });
      const listed = await again.storage.from(bucket).list();
      expect(listed.data!.map((entry) => entry.name)).toEqual(['kept.bin']);
      expect((await again.storage.from(bucket).exists('half.bin')).data).toBe(false);
      const { data } = await again.storage.from(bucket).download('kept.bin');
      expect(sha256(Buffer.from(await data!.arrayBuffer()))).toBe(sha256(kept));
      // The name is free for a complete upload.
      expect((await again.storage.from(bucket).upload('half.bin', 'whole')).error).toBeNull();
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null)
        first.child.kill('SIGKILL');
      if (second) {
        second.child.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      }
    }
  }, 150_000);
});
