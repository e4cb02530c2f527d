import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { loadKeys } from '../keys/load-keys';
import { clientFor } from '../testing/clients';
import { cloneTestDatabase, testDatabaseKind, type TestDatabase } from '../testing/harness';
import { ROOT_DIR } from '../testing/root-dir';
import { startS3rver, type LocalS3 } from '../testing/s3rver';
import { startServerProcess, type ServerProcess } from '../testing/server-process';
import { startTestProxy, type TestProxy } from '../testing/test-proxy';

/**
 * Several server processes over one PostgreSQL behave as one, behind a load
 * balancer (server/testing/test-proxy.ts): sessions, refresh-token reuse, rate
 * limits, schema changes, S3 storage and migrations are shared through the
 * database (and the bucket), and a rolling restart under load drops nothing.
 * Both servers get the same JWT_SECRET, as a deployment of several servers
 * must (or the same JWT_KEYS). PostgreSQL only: the embedded database belongs
 * to one process.
 */

const SECRET = 'one signing secret shared by every server, 32+ chars';
const SIGN_INS_PER_5_MINUTES = 4;
const EXTRA_MIGRATION = '20991231000000_cluster_added.sql';

let folder: string;
let siteDir: string;
let databaseUrl = '';
let anonKey = '';
let serviceRoleKey = '';
let addressCounter = 0;

/** A caller address of its own (rate limits count per address; TRUST_PROXY=loopback believes it). */
function nextAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

function client(url: string, options: { key?: string; address?: string } = {}): SupabaseClient {
  return clientFor(
    { url, anonKey },
    {
      key: options.key,
      global: { headers: { 'X-Forwarded-For': options.address ?? nextAddress() } },
    },
  );
}

async function signedIn(
  url: string,
  email: string,
  address?: string,
): Promise<{ client: SupabaseClient; accessToken: string; refreshToken: string }> {
  const signedInClient = client(url, { address });
  const { data, error } = await signedInClient.auth.signInWithPassword({
    email,
    password: PASSWORD,
  });
  if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
  return {
    client: signedInClient,
    accessToken: data.session.access_token,
    refreshToken: data.session.refresh_token,
  };
}

const PASSWORD = 'a long cluster password 8421';

async function waitUntilReady(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(`${url}/health/ready`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} not ready`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stop(server: ServerProcess | undefined): Promise<number | null | undefined> {
  if (!server || server.child.exitCode !== null) return server?.child.exitCode;
  server.child.kill('SIGTERM');
  return server.exited;
}

const isPostgres = testDatabaseKind() === 'postgres';

beforeAll(async () => {
  if (!isPostgres) return;
  folder = await mkdtemp(path.join(tmpdir(), 'cervana-cluster-'));
  siteDir = path.join(folder, 'site');
  await mkdir(siteDir);
  await writeFile(path.join(siteDir, 'index.html'), '<!doctype html><title>shell</title>');
  const keys = await loadKeys(
    loadConfig({ JWT_SECRET: SECRET, DATA_DIR: path.join(folder, 'keys') }, { rootDir: ROOT_DIR }),
  );
  anonKey = keys.anonKey;
  serviceRoleKey = keys.serviceRoleKey;
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe.runIf(isPostgres)('several servers on one PostgreSQL', () => {
  it('apply each migration once when two start together on a fresh database', async () => {
    const fresh = await cloneTestDatabase({ empty: true });
    const servers: ServerProcess[] = [];
    try {
      const started = await Promise.allSettled(
        ['first', 'second'].map((name) =>
          startServerProcess({
            dataDir: path.join(folder, `fresh-${name}`),
            siteDir,
            databaseUrl: fresh.url!,
            readyTimeoutMs: 60_000,
            env: { JWT_SECRET: SECRET, SEED_SAMPLE_DATA: 'false' },
          }),
        ),
      );
      for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
      expect(started.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
      await Promise.all(servers.map((server) => waitUntilReady(server.url)));

      const { rows } = await fresh.db.query<{ label: string }>(
        `select scope || '/' || version as label from cervana.schema_migrations`,
      );
      const platform = (await readdir(path.join(ROOT_DIR, 'server', 'db', 'migrations'))).filter(
        (name) => name.endsWith('.sql'),
      );
      const product = (await readdir(path.join(ROOT_DIR, 'supabase', 'migrations'))).filter(
        (name) => name.endsWith('.sql'),
      );
      expect(rows).toHaveLength(platform.length + product.length);
      // Each file was applied by exactly one of the two.
      const appliedBy = servers.map((server) =>
        [...server.output().matchAll(/applied migration (\S+?)"/g)].map((match) => match[1]!),
      );
      const all = appliedBy.flat();
      expect(new Set(all).size).toBe(all.length);
      const versionOf = (label: string) => label.replace(/_.*/, '');
      expect(all.map(versionOf).sort()).toEqual(rows.map((row) => row.label).sort());
    } finally {
      expect(await Promise.all(servers.map(stop))).toEqual(servers.map(() => 0));
      await fresh.drop();
    }
  }, 120_000);

  describe('behind a load balancer', () => {
    let database: TestDatabase;
    let s3: LocalS3;
    let proxy: TestProxy;
    const servers: (ServerProcess | undefined)[] = [undefined, undefined];
    const ports: number[] = [];
    const envs: Record<string, string>[] = [];
    let admin: SupabaseClient;
    const emails: string[] = [];

    const start = async (index: number) => {
      servers[index] = await startServerProcess({
        dataDir: path.join(folder, `server-${index}`),
        siteDir,
        databaseUrl,
        env: envs[index],
        ...(ports[index] ? { port: ports[index] } : {}),
      });
      ports[index] = Number(new URL(servers[index].url).port);
      await waitUntilReady(servers[index].url);
    };
    const urlOf = (index: number) => servers[index]!.url;

    beforeAll(async () => {
      database = await cloneTestDatabase();
      databaseUrl = database.url!;
      await database.db.exec(`
        create table public.cluster_notes (
          id bigint generated always as identity primary key,
          user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
          request_id text not null,
          note text not null
        );
        alter table public.cluster_notes enable row level security;
        grant select, insert on public.cluster_notes to authenticated;
        create policy "own notes" on public.cluster_notes for select to authenticated
          using (user_id = auth.uid());
        create policy "own inserts" on public.cluster_notes for insert to authenticated
          with check (user_id = auth.uid());
      `);
      s3 = await startS3rver();
      const common = {
        JWT_SECRET: SECRET,
        SEED_SAMPLE_DATA: 'false',
        TRUST_PROXY: 'loopback',
        RATE_LIMIT_SIGN_IN_SIGN_UPS: String(SIGN_INS_PER_5_MINUTES),
        SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: '1',
        SHUTDOWN_TIMEOUT_MS: '8000',
        STORAGE_BACKEND: 's3',
        STORAGE_S3_BUCKET: s3.bucket,
        STORAGE_S3_ENDPOINT: s3.endpoint,
        STORAGE_S3_ACCESS_KEY_ID: s3.accessKeyId,
        STORAGE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        STORAGE_S3_FORCE_PATH_STYLE: 'true',
      };
      // The second server brings one more product migration (a copy of supabase/migrations).
      const supabaseDir = path.join(folder, 'supabase-next');
      await mkdir(path.join(supabaseDir, 'migrations'), { recursive: true });
      const productDir = path.join(ROOT_DIR, 'supabase', 'migrations');
      for (const name of await readdir(productDir)) {
        await copyFile(path.join(productDir, name), path.join(supabaseDir, 'migrations', name));
      }
      await symlink(
        path.join(ROOT_DIR, 'supabase', 'sample-recordings'),
        path.join(supabaseDir, 'sample-recordings'),
      );
      await writeFile(
        path.join(supabaseDir, 'migrations', EXTRA_MIGRATION),
        `create table public.cluster_added (id int primary key, label text not null);
         alter table public.cluster_added enable row level security;
         grant select on public.cluster_added to anon, authenticated;
         create policy "anyone reads" on public.cluster_added for select to anon, authenticated
           using (true);
         insert into public.cluster_added values (1, 'added by the second server');`,
      );
      envs.push(common, { ...common, SUPABASE_DIR: supabaseDir });

      await start(0);
      admin = client(urlOf(0), { key: serviceRoleKey });
      for (let i = 0; i < 6; i += 1) {
        const email = `cluster-${i}-${randomUUID().slice(0, 8)}@example.com`;
        const { error } = await admin.auth.admin.createUser({
          email,
          password: PASSWORD,
          email_confirm: true,
        });
        expect(error).toBeNull();
        emails.push(email);
      }
      // The first server has read its schema (and listens for reloads) before the second migrates.
      const before = await client(urlOf(0)).from('cluster_added').select('id');
      expect(before.error?.code).toBe('PGRST205');
      await start(1);
      proxy = await startTestProxy({ backends: [urlOf(0), urlOf(1)], retryStatuses: [503] });
    }, 120_000);

    afterAll(async () => {
      await proxy?.close();
      await Promise.all(servers.map(stop));
      await s3?.close();
      await database?.drop();
    });

    it('accepts on one server a session made on the other (getUser, a read under RLS)', async () => {
      const onA = await signedIn(urlOf(0), emails[0]!);
      const insert = await onA.client
        .from('cluster_notes')
        .insert({ request_id: 'session', note: 'written on A' });
      expect(insert.error).toBeNull();

      const onB = client(urlOf(1), { key: anonKey });
      const user = await onB.auth.getUser(onA.accessToken);
      expect(user.error).toBeNull();
      expect(user.data.user?.email).toBe(emails[0]);
      await onB.auth.setSession({
        access_token: onA.accessToken,
        refresh_token: onA.refreshToken,
      });
      const read = await onB.from('cluster_notes').select('request_id, note');
      expect(read.error).toBeNull();
      expect(read.data).toEqual([{ request_id: 'session', note: 'written on A' }]);
      // Another user on B sees none of it.
      const other = await signedIn(urlOf(1), emails[1]!);
      expect((await other.client.from('cluster_notes').select('id')).data).toEqual([]);
    });

    it('refuses on one server a refresh token rotated on the other, after the reuse interval', async () => {
      const session = await signedIn(urlOf(0), emails[2]!);
      const rotated = await client(urlOf(0)).auth.refreshSession({
        refresh_token: session.refreshToken,
      });
      expect(rotated.error).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const reused = await client(urlOf(1)).auth.refreshSession({
        refresh_token: session.refreshToken,
      });
      expect(reused.error?.status).toBe(400);
      expect(reused.error?.code).toBe('refresh_token_already_used');
      // Reuse revokes the whole session, on both servers.
      const again = await client(urlOf(0)).auth.refreshSession({
        refresh_token: rotated.data.session!.refresh_token,
      });
      expect(again.error?.status).toBe(400);
    });

    it('adds up rate limits across both servers', async () => {
      const address = nextAddress();
      for (let i = 0; i < SIGN_INS_PER_5_MINUTES; i += 1) {
        const server = i % 2;
        const attempt = await client(urlOf(server), { address }).auth.signInWithPassword({
          email: emails[3]!,
          password: PASSWORD,
        });
        expect(attempt.error).toBeNull();
      }
      for (const server of [0, 1]) {
        const refused = await client(urlOf(server), { address }).auth.signInWithPassword({
          email: emails[3]!,
          password: PASSWORD,
        });
        expect(refused.error?.status).toBe(429);
        expect(refused.error?.code).toBe('over_request_rate_limit');
      }
    });

    it("sees a table that another server's migration created, without a restart", async () => {
      // The second server applied it at start and reads it…
      const onB = await client(urlOf(1)).from('cluster_added').select('label');
      expect(onB.error).toBeNull();
      expect(onB.data).toEqual([{ label: 'added by the second server' }]);
      // …and the first, which had loaded its schema before, sees it too: the migration's
      // `notify pgrst, 'reload schema'` reaches it (asynchronously, hence the short wait).
      const deadline = Date.now() + 3_000;
      let onA = await client(urlOf(0)).from('cluster_added').select('label');
      while (onA.error && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        onA = await client(urlOf(0)).from('cluster_added').select('label');
      }
      expect(onA.error).toBeNull();
      expect(onA.data).toEqual([{ label: 'added by the second server' }]);
    });

    it('stores objects in S3 for both: uploaded on one, downloaded and signed-URL fetched on the other', async () => {
      const bucketName = `cluster-${randomUUID().slice(0, 8)}`;
      const created = await admin.storage.createBucket(bucketName, { public: false });
      expect(created.error).toBeNull();
      const bytes = randomBytes(2 * 1024 * 1024 + 11);
      const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
      const uploaded = await admin.storage
        .from(bucketName)
        .upload('call.bin', new Blob([new Uint8Array(bytes)]), {
          contentType: 'application/octet-stream',
        });
      expect(uploaded.error).toBeNull();

      const adminOnB = client(urlOf(1), { key: serviceRoleKey });
      const downloaded = await adminOnB.storage.from(bucketName).download('call.bin');
      expect(downloaded.error).toBeNull();
      expect(sha(new Uint8Array(await downloaded.data!.arrayBuffer()))).toBe(sha(bytes));

      const signed = await admin.storage.from(bucketName).createSignedUrl('call.bin', 60);
      expect(signed.error).toBeNull();
      const onB = new URL(signed.data!.signedUrl);
      onB.host = new URL(urlOf(1)).host;
      const fetched = await fetch(onB);
      expect(fetched.status).toBe(200);
      expect(sha(new Uint8Array(await fetched.arrayBuffer()))).toBe(sha(bytes));
    });

    it('drops no request and loses no write during a rolling restart under load', async () => {
      const LOOPS = 6;
      let running = true;
      const counts = { requests: 0, writes: 0, reads: 0, health: 0, signIns: 0 };
      const failures: string[] = [];
      const acknowledged: string[] = [];

      const loop = async (index: number) => {
        let session = await signedIn(proxy.url, emails[index % emails.length]!);
        let step = 0;
        while (running) {
          step += 1;
          const kind = step % 10;
          counts.requests += 1;
          try {
            if (kind < 4) {
              const requestId = randomUUID();
              const { error, status } = await session.client
                .from('cluster_notes')
                .insert({ request_id: requestId, note: `loop ${index} step ${step}` });
              if (error || status !== 201)
                failures.push(`insert: ${status} ${error?.code} ${error?.message}`);
              else acknowledged.push(requestId);
              counts.writes += 1;
            } else if (kind < 7) {
              const { error, status } = await session.client
                .from('cluster_notes')
                .select('id')
                .limit(5);
              if (error || status !== 200)
                failures.push(`select: ${status} ${error?.code} ${error?.message}`);
              counts.reads += 1;
            } else if (kind < 9) {
              const response = await fetch(`${proxy.url}/health`);
              if (response.status !== 200) failures.push(`GET /health: ${response.status}`);
              await response.arrayBuffer();
              counts.health += 1;
            } else {
              session = await signedIn(proxy.url, emails[index % emails.length]!);
              counts.signIns += 1;
            }
          } catch (error) {
            failures.push(`${kind}: ${(error as Error).message}`);
          }
        }
      };

      const startedAt = Date.now();
      const loops = Array.from({ length: LOOPS }, (_, index) => loop(index));
      const restarts: {
        server: number;
        exitCode: number | null;
        stopMs: number;
        readyMs: number;
      }[] = [];
      const pause = () => new Promise((resolve) => setTimeout(resolve, 1_500));
      try {
        await pause();
        for (const index of [0, 1]) {
          const stopping = Date.now();
          servers[index]!.child.kill('SIGTERM');
          const exitCode = await servers[index]!.exited;
          const stopMs = Date.now() - stopping;
          const starting = Date.now();
          await start(index);
          restarts.push({ server: index, exitCode, stopMs, readyMs: Date.now() - starting });
          await pause();
        }
      } finally {
        running = false;
        await Promise.all(loops);
      }
      const elapsedMs = Date.now() - startedAt;

      const { rows } = await database.db.query<{ request_id: string; copies: number }>(
        `select request_id, count(*)::int as copies from public.cluster_notes
         where request_id <> 'session' group by request_id`,
      );
      const stored = new Map(rows.map((row) => [row.request_id, row.copies]));
      const lost = acknowledged.filter((id) => !stored.has(id));
      const twice = rows.filter((row) => row.copies > 1);
      console.log(
        `[rolling restart] ${elapsedMs} ms, ${LOOPS} loops: ${counts.requests} requests ` +
          `(${counts.writes} inserts, ${counts.reads} selects, ${counts.health} GET /health, ` +
          `${counts.signIns} sign-ins), ${failures.length} failed; ${acknowledged.length} writes ` +
          `acknowledged, ${lost.length} lost, ${twice.length} stored twice, ${stored.size} stored; ` +
          `proxy: ${JSON.stringify({ ...proxy.stats, failureReasons: undefined })}; ` +
          `restarts: ${JSON.stringify(restarts)}`,
      );
      if (failures.length > 0) console.log(failures.slice(0, 20).join('\n'));
      if (proxy.stats.failureReasons.length > 0)
        console.log(proxy.stats.failureReasons.slice(0, 20).join('\n'));
      expect(restarts.map((restart) => restart.exitCode)).toEqual([0, 0]);
      expect(failures).toEqual([]);
      expect(proxy.stats.failures).toBe(0);
      expect(lost).toEqual([]);
      expect(twice).toEqual([]);
      expect(stored.size).toBe(acknowledged.length);
      expect(counts.writes).toBeGreaterThan(50);
      // The drains met kept-alive connections: responses said `Connection: close` on them.
      expect(proxy.stats.closingResponses).toBeGreaterThan(0);
    }, 90_000);
  });
});
