import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger';

/**
 * The sample calls' recordings (supabase/sample-recordings/<scenario>.mp3, made
 * by scripts/demo-audio/generate.sh) must be in the call-recordings bucket as
 * samples/<scenario>.mp3 wherever sample calls point at them. The server puts
 * them there once it listens, through its own storage API with the official
 * client and the service role key, so the same code works with every storage
 * backend (and against a hosted project). Idempotent: one listing when all are
 * there; a missing file is uploaded, a different one (size or MD5) replaced.
 * Several servers may race: a 409 (someone else uploaded it first) is fine.
 */

export const SAMPLE_RECORDINGS_BUCKET = 'call-recordings';
export const SAMPLE_RECORDINGS_FOLDER = 'samples';

export interface SampleRecordingsOptions {
  /** The storage API's project URL: the server's own (RunningServer.url). */
  url: string;
  serviceRoleKey: string;
  /** The folder holding the .mp3 files: path.join(config.supabaseDir, 'sample-recordings'). */
  directory: string;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export interface SampleRecordingsResult {
  uploaded: string[];
  replaced: string[];
  present: string[];
}

interface Listed {
  name: string;
  metadata: { size?: number; eTag?: string } | null;
}

export async function ensureSampleRecordings(
  options: SampleRecordingsOptions,
): Promise<SampleRecordingsResult> {
  const result: SampleRecordingsResult = { uploaded: [], replaced: [], present: [] };
  let files: string[];
  try {
    files = (await readdir(options.directory)).filter((name) => name.endsWith('.mp3')).sort();
  } catch (error) {
    options.logger?.warn(
      { err: error },
      `no sample recordings in ${options.directory}: sample calls will not play`,
    );
    return result;
  }
  if (files.length === 0) return result;

  // Loaded only here: the server's start does not wait for the client's modules.
  const [{ createClient }, { WebSocket }] = await Promise.all([
    import('@supabase/supabase-js'),
    import('ws'),
  ]);
  const client = createClient(options.url, options.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Never connected (storage only), but the client wants a transport on Node 20.
    realtime: { transport: WebSocket as never },
    // A few requests once at start-up: none leaves a kept-alive connection behind, which a
    // stop in the next seconds would otherwise wait out as idle (server/http/drain.ts).
    global: { fetch: closingFetch },
  });
  const bucket = client.storage.from(SAMPLE_RECORDINGS_BUCKET);
  const listing = await bucket.list(SAMPLE_RECORDINGS_FOLDER, { limit: 1000 });
  if (listing.error) throw listing.error;
  const stored = new Map((listing.data as Listed[]).map((entry) => [entry.name, entry.metadata]));

  for (const file of files) {
    const body = await readFile(path.join(options.directory, file));
    const md5 = createHash('md5').update(body).digest('hex');
    const metadata = stored.get(file);
    const etag = metadata?.eTag?.replaceAll('"', '');
    const isSame =
      metadata != null &&
      metadata.size === body.length &&
      (etag === undefined || !/^[0-9a-f]{32}$/.test(etag) || etag === md5);
    if (isSame) {
      result.present.push(file);
      continue;
    }
    const exists = metadata !== undefined;
    const { error } = await bucket.upload(`${SAMPLE_RECORDINGS_FOLDER}/${file}`, body, {
      contentType: 'audio/mpeg',
      cacheControl: '86400',
      upsert: exists,
    });
    if (error && !isConflict(error)) throw error;
    if (error) result.present.push(file);
    else (exists ? result.replaced : result.uploaded).push(file);
  }
  if (result.uploaded.length + result.replaced.length > 0) {
    options.logger?.info(
      `sample recordings: ${result.uploaded.length} uploaded, ${result.replaced.length} replaced`,
    );
  }
  return result;
}

/** fetch, each request on a connection closed after its response (`Connection: close`). */
const closingFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('Connection', 'close');
  return fetch(input, { ...init, headers });
};

/** Another server stored the same object meanwhile. */
function isConflict(error: unknown): boolean {
  const { status, statusCode } = error as { status?: number; statusCode?: string };
  return status === 409 || statusCode === '409';
}
