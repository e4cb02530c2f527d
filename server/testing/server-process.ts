import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { findFreePort } from './harness';
import { ROOT_DIR } from './root-dir';

/**
 * The server as an operator runs it: its own process (server/main.ts), on a
 * data folder the caller keeps, so tests can signal, kill and restart it.
 */

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far. */
  output: () => string;
  exited: Promise<number | null>;
}

export async function startServerProcess(options: {
  dataDir: string;
  siteDir: string;
  /** PostgreSQL to run on; the embedded database in `dataDir` otherwise. */
  databaseUrl?: string;
  readyTimeoutMs?: number;
  /** Extra environment. */
  env?: Record<string, string>;
  /** The port to listen on (to restart on the same one); a free one otherwise. */
  port?: number;
}): Promise<ServerProcess> {
  const port = options.port ?? (await findFreePort());
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT_DIR, 'server', 'main.ts')],
    {
      cwd: ROOT_DIR,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: options.dataDir,
        SITE_DIR: options.siteDir,
        LOG_FORMAT: 'json',
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (!output.includes('Cervana is ready')) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}
