import { createHash } from 'node:crypto';
import { chmod, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from './config';
import type { Keys } from './keys/load-keys';

/**
 * What the running server uses, written to DATA_DIR/server.json once it
 * listens and removed when it stops, so that `npm run keys` (another process,
 * perhaps started from a shell with another environment) prints the URL and
 * keys of the server actually running on that data folder. No secret is
 * written: the API keys only as SHA-256 fingerprints, to tell whether the keys
 * `npm run keys` derives are the ones the server uses.
 */

export const INSTANCE_FILE = 'server.json';

const recordSchema = z.object({
  version: z.literal(1),
  pid: z.number().int().positive(),
  startedAt: z.string(),
  siteUrl: z.string(),
  apiUrl: z.string(),
  /** The address the HTTP server is bound to (differs from siteUrl behind a proxy, or with PORT=0). */
  listening: z.string(),
  /** Whether the signing key came from DATA_DIR/keys.json or from JWT_KEYS/JWT_SECRET. */
  keySource: z.enum(['file', 'environment']),
  anonKeySha256: z.string(),
  serviceRoleKeySha256: z.string(),
});

export type InstanceRecord = z.infer<typeof recordSchema>;

export function fingerprint(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export function describeInstance(
  config: Pick<Config, 'siteUrl' | 'apiUrl'>,
  keys: Pick<Keys, 'anonKey' | 'serviceRoleKey' | 'file'>,
  listening: string,
  pid: number = process.pid,
): InstanceRecord {
  return {
    version: 1,
    pid,
    startedAt: new Date().toISOString(),
    siteUrl: config.siteUrl,
    apiUrl: config.apiUrl,
    listening,
    keySource: keys.file ? 'file' : 'environment',
    anonKeySha256: fingerprint(keys.anonKey),
    serviceRoleKeySha256: fingerprint(keys.serviceRoleKey),
  };
}

export async function writeInstanceFile(dataDir: string, record: InstanceRecord): Promise<void> {
  const file = path.join(dataDir, INSTANCE_FILE);
  const temporary = `${file}.${record.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

async function readInstanceFile(dataDir: string): Promise<InstanceRecord | undefined> {
  let raw: string;
  try {
    raw = await readFile(path.join(dataDir, INSTANCE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = recordSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // half-written by a crashed process: as good as absent
  }
}

/** Removes the record when it is this process's (a newer server may have replaced it). */
export async function removeInstanceFile(
  dataDir: string,
  pid: number = process.pid,
): Promise<void> {
  const record = await readInstanceFile(dataDir).catch(() => undefined);
  if (record?.pid !== pid) return;
  await unlink(path.join(dataDir, INSTANCE_FILE)).catch(() => undefined);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The last server recorded on this data folder, and whether it still runs (a
 * server killed outright leaves its record behind).
 */
export async function readInstance(
  dataDir: string,
  isAlive: (pid: number) => boolean = isProcessAlive,
): Promise<{ record: InstanceRecord; running: boolean } | undefined> {
  const record = await readInstanceFile(dataDir);
  return record && { record, running: isAlive(record.pid) };
}
