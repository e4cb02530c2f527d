import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import type { StorageConfig } from '../config';
import type { Database } from '../db/database';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import type { BlobStore } from './blob-store';
import {
  createBucket,
  deleteBucket,
  emptyBucket,
  getBucket,
  listBuckets,
  updateBucket,
} from './buckets';
import { objectFor, objectInfo, serveObject, type Access } from './download';
import { StorageError, storageErrorResponse, storageErrors } from './errors';
import { FsBlobStore } from './fs-store';
import { listObjects, listObjectsV2 } from './list';
import { decode, splitObjectPath } from './names';
import { copyObject, moveObject, removeObject, removeObjects, uploadObject } from './objects';
import type { StorageService } from './service';
import { signObject, signObjects, signUpload, uploadWithToken, verifyObjectToken } from './signing';
import { sweepOrphanBlobs } from './sweep';
import { createRenderer, parseTransform, renderImage, transformFromDescription } from './render';
import type { TrustProxy } from '../http/client-ip';

/**
 * The Supabase Storage-compatible service (`/storage/v1`, contract §4).
 * Object routes take the rest of the path as `<bucket>/<key>` with `/` inside
 * keys, so they are dispatched here from the raw path rather than by Hono
 * patterns; every answer that is not an object is Storage's JSON.
 */

export interface StorageDependencies {
  db: Database;
  ring: KeyRing;
  config: StorageConfig;
  logger: Logger;
  /** Whether a trusted proxy's X-Forwarded-For gives the caller's address (TRUST_PROXY). */
  trustProxy?: TrustProxy;
}

export interface StorageRoutes {
  routes: Hono;
  service: StorageService;
  close(): Promise<void>;
}

async function openStore(config: StorageConfig): Promise<BlobStore> {
  if (config.backend === 's3') {
    const { openS3BlobStore } = await import('./s3-store');
    return openS3BlobStore(config.s3);
  }
  return new FsBlobStore(config.dir).open();
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;

export async function createStorageRoutes(
  dependencies: StorageDependencies,
): Promise<StorageRoutes> {
  const { config, logger } = dependencies;
  // Uploads are staged here whatever the store (the filesystem store renames
  // from it, so it is that store's tmp folder too); a crash's leftovers go.
  const tmpDir = path.join(config.dir, 'tmp');
  await rm(tmpDir, { recursive: true, force: true });
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  const store = await openStore(config);
  const renderer = createRenderer(config.render, logger);
  const service: StorageService = { ...dependencies, store, tmpDir, renderer };

  const sweep = () =>
    void sweepOrphanBlobs(service).catch((error: unknown) =>
      logger.warn({ err: error }, 'storage: the orphan sweep failed'),
    );
  const firstSweep = setTimeout(sweep, 30_000);
  const sweeps = setInterval(sweep, SWEEP_EVERY_MS);
  firstSweep.unref();
  sweeps.unref();

  const routes = new Hono();
  routes.onError((error, c) => {
    if (error instanceof StorageError) return storageErrorResponse(c, error);
    logger.error(
      { err: error, method: c.req.method, path: c.req.path },
      'storage: unexpected error',
    );
    return storageErrorResponse(c, storageErrors.internal());
  });

  routes.get('/bucket', (c) => listBuckets(service, c));
  routes.post('/bucket', (c) => createBucket(service, c));
  routes.get('/bucket/:id', (c) => getBucket(service, c, decode(c.req.param('id'))));
  routes.put('/bucket/:id', (c) => updateBucket(service, c, decode(c.req.param('id'))));
  routes.delete('/bucket/:id', (c) => deleteBucket(service, c, decode(c.req.param('id'))));
  routes.post('/bucket/:id/empty', (c) => emptyBucket(service, c, decode(c.req.param('id'))));

  routes.on(['GET', 'HEAD', 'POST', 'PUT', 'DELETE'], '/object/*', (c) => objectRoute(service, c));

  routes.on(['GET', 'HEAD'], '/render/image/*', (c) => renderRoute(service, c));

  routes.all('*', () => {
    throw storageErrors.notFound();
  });

  return {
    routes,
    service,
    async close() {
      clearTimeout(firstSweep);
      clearInterval(sweeps);
      await renderer.close();
      await store.close?.();
    },
  };
}

/** The part of the raw (still encoded) URL path after `/storage/v1/<marker>`. */
function pathAfter(c: Context, marker: string): string {
  const pathname = new URL(c.req.url).pathname;
  const full = `/storage/v1/${marker}`;
  const at = pathname.indexOf(full);
  return at === -1 ? '' : pathname.slice(at + full.length);
}

/** `/render/image/{authenticated|public|sign}/<bucket>/<key>`: a resized image. */
async function renderRoute(service: StorageService, c: Context): Promise<Response> {
  const rest = pathAfter(c, 'render/image/');
  const slash = rest.indexOf('/');
  const mode = rest.slice(0, slash);
  const { bucketId, key } = splitObjectPath(rest.slice(slash + 1));
  let transform;
  if (mode === 'sign') {
    const claims = await verifyObjectToken(
      service,
      c.req.query('token'),
      bucketId,
      key,
      'download',
    );
    transform = transformFromDescription(
      typeof claims.transformations === 'string' ? claims.transformations : '',
    );
  } else if (mode === 'public' || mode === 'authenticated') {
    transform = parseTransform(c.req.query());
  } else {
    throw storageErrors.notFound();
  }
  const access: Access = mode === 'sign' ? 'signed' : mode === 'public' ? 'public' : 'caller';
  const row = await objectFor(service, c, access, bucketId, key);
  if (!row.version) throw storageErrors.noSuchKey();
  return renderImage(service, c, row, access, transform);
}

function stripPrefix(rest: string, prefix: string): string | undefined {
  return rest.startsWith(prefix) ? rest.slice(prefix.length) : undefined;
}

async function download(service: StorageService, c: Context, access: Access, rest: string) {
  const { bucketId, key } = splitObjectPath(rest);
  if (access === 'signed') {
    await verifyObjectToken(service, c.req.query('token'), bucketId, key, 'download');
  }
  const row = await objectFor(service, c, access, bucketId, key);
  return serveObject(service, c, row);
}

async function objectRoute(service: StorageService, c: Context): Promise<Response> {
  const method = c.req.method;
  const rest = pathAfter(c, 'object/');
  let tail: string | undefined;

  if (method === 'GET' || method === 'HEAD') {
    if ((tail = stripPrefix(rest, 'info/')) !== undefined) {
      const access: Access = tail.startsWith('public/') ? 'public' : 'caller';
      const inner = stripPrefix(tail, 'public/') ?? stripPrefix(tail, 'authenticated/') ?? tail;
      const { bucketId, key } = splitObjectPath(inner);
      const row = await objectFor(service, c, access, bucketId, key);
      return method === 'HEAD' ? serveObject(service, c, row, { head: true }) : objectInfo(c, row);
    }
    if ((tail = stripPrefix(rest, 'public/')) !== undefined)
      return download(service, c, 'public', tail);
    if ((tail = stripPrefix(rest, 'sign/')) !== undefined)
      return download(service, c, 'signed', tail);
    if ((tail = stripPrefix(rest, 'authenticated/')) !== undefined) {
      return download(service, c, 'caller', tail);
    }
    return download(service, c, 'caller', rest);
  }

  if (method === 'POST') {
    if ((tail = stripPrefix(rest, 'list/')) !== undefined)
      return listObjects(service, c, decode(tail));
    if ((tail = stripPrefix(rest, 'list-v2/')) !== undefined)
      return listObjectsV2(service, c, decode(tail));
    if (rest === 'move') return moveObject(service, c);
    if (rest === 'copy') return copyObject(service, c);
    if ((tail = stripPrefix(rest, 'upload/sign/')) !== undefined) {
      const { bucketId, key } = splitObjectPath(tail);
      return signUpload(service, c, bucketId, key);
    }
    if ((tail = stripPrefix(rest, 'sign/')) !== undefined) {
      if (!tail.includes('/')) return signObjects(service, c, decode(tail));
      const { bucketId, key } = splitObjectPath(tail);
      return signObject(service, c, bucketId, key);
    }
    const { bucketId, key } = splitObjectPath(rest);
    return uploadObject(service, c, { bucketId, key }, 'POST');
  }

  if (method === 'PUT') {
    if ((tail = stripPrefix(rest, 'upload/sign/')) !== undefined) {
      const { bucketId, key } = splitObjectPath(tail);
      return uploadWithToken(service, c, bucketId, key);
    }
    const { bucketId, key } = splitObjectPath(rest);
    return uploadObject(service, c, { bucketId, key }, 'PUT');
  }

  // DELETE
  if (!rest.includes('/')) return removeObjects(service, c, decode(rest));
  const { bucketId, key } = splitObjectPath(rest);
  return removeObject(service, c, { bucketId, key });
}
