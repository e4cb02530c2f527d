import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A throw-away PostgreSQL cluster for tests: initdb in a temporary folder,
 * started on a free port, removed afterwards. As root it runs as `postgres`
 * (initdb refuses root).
 */

export interface PostgresCluster {
  url: string;
  /** Connection URL for another database of the same cluster. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export function findPostgresBinaries(): string | undefined {
  const candidates = [process.env.PG_BIN].filter((value): value is string => Boolean(value));
  try {
    const fromPath = execFileSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).trim();
    if (fromPath) candidates.push(path.dirname(fromPath));
  } catch {
    // not on PATH
  }
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    for (const version of readdirSync(debianRoot).sort().reverse()) {
      candidates.push(path.join(debianRoot, version, 'bin'));
    }
  }
  return candidates.find(
    (directory) =>
      existsSync(path.join(directory, 'initdb')) && existsSync(path.join(directory, 'pg_ctl')),
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function runAsOwner(binary: string, args: string[]): void {
  const [command, commandArgs] = isRoot()
    ? ['runuser', ['-u', 'postgres', '--', binary, ...args]]
    : [binary, args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(binary)} failed (${result.status}): ${result.stderr || result.stdout}`,
    );
  }
}

export async function startPostgresCluster(binaries: string): Promise<PostgresCluster> {
  const folder = await mkdtemp(path.join(tmpdir(), 'cervana-pg-'));
  const dataDir = path.join(folder, 'data');
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    await chown(folder, uid, gid);
  }
  await chmod(folder, 0o700);
  const port = await freePort();

  runAsOwner(path.join(binaries, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const options = [
    `-p ${port}`,
    `-k ${folder}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  runAsOwner(path.join(binaries, 'pg_ctl'), [
    '-D',
    dataDir,
    '-o',
    options,
    '-l',
    path.join(folder, 'postgres.log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);

  const urlFor = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    url: urlFor('postgres'),
    urlFor,
    async stop() {
      try {
        runAsOwner(path.join(binaries, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}
