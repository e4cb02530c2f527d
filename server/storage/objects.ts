import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { z } from 'zod';
import { DatabaseError, type Transaction } from '../db/database';
import type { Caller } from './caller';
import { storageErrors } from './errors';
import { assertBucketId, assertKey } from './names';
import { readBody } from './request-body';
import {
  asCaller,
  bucketForUpload,
  callerFor,
  deleteBlobsLater,
  limitsFor,
  type StorageService,
} from './service';
import { stageUpload, type StagedUpload } from './upload-stream';

/**
 * Writing objects. An upload is checked against row-level security before a
 * byte is read (the row is written in a transaction that is rolled back), then
 * streamed to a staged file, moved into the blob store under a fresh key, and
 * only then recorded: the row points at a complete blob or the upload never
 * happened. A replaced or deleted object's old blob is removed after commit;
 * a crash between the two leaves an unreferenced blob for the sweep, never a
 * row without bytes.
 */

export type WriteMode = 'create' | 'upsert' | 'update';

interface ObjectTarget {
  bucketId: string;
  key: string;
}

class RollBack extends Error {}

function objectMetadata(upload: StagedUpload): Record<string, unknown> {
  return {
    eTag: `"${upload.md5}"`,
    size: upload.size,
    mimetype: upload.mimeType,
    cacheControl: upload.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: upload.size,
    httpStatusCode: 200,
    ...(upload.contentEncoding ? { contentEncoding: upload.contentEncoding } : {}),
  };
}

/** The one statement that records an object, for each way of writing it. */
async function writeRow(
  tx: Transaction,
  mode: WriteMode,
  target: ObjectTarget,
  row: {
    id: string;
    owner: string | undefined;
    metadata: Record<string, unknown>;
    userMetadata: Record<string, unknown> | undefined;
    version: string;
  },
): Promise<{ id: string; oldVersion: string | null }> {
  const ownerUuid = row.owner && /^[0-9a-f-]{36}$/i.test(row.owner) ? row.owner : null;
  const params = [
    row.id,
    target.bucketId,
    target.key,
    ownerUuid,
    row.owner ?? null,
    JSON.stringify(row.metadata),
    row.userMetadata === undefined ? null : JSON.stringify(row.userMetadata),
    row.version,
  ];
  if (mode === 'create') {
    await tx.query(
      `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      params,
    );
    return { id: row.id, oldVersion: null };
  }
  if (mode === 'upsert') {
    // The replaced blob, read (and locked) first: a CTE locking the row that the
    // same statement then updates would see nothing.
    const old = await tx.query<{ version: string | null }>(
      `select version from storage.objects where bucket_id = $1 and name = $2 for update`,
      [target.bucketId, target.key],
    );
    const { rows } = await tx.query<{ id: string }>(
      `insert into storage.objects as o (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (bucket_id, name) do update set
         owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
         user_metadata = excluded.user_metadata, version = excluded.version,
         updated_at = now(), last_accessed_at = now()
       returning o.id`,
      params,
    );
    return { id: rows[0]!.id, oldVersion: old.rows[0]?.version ?? null };
  }
  const { rows } = await tx.query<{ id: string; old_version: string | null }>(
    `with old as (
       select id, version from storage.objects where bucket_id = $1 and name = $2 for update
     )
     update storage.objects o set
       owner = $3, owner_id = $4, metadata = $5, user_metadata = $6, version = $7,
       last_accessed_at = now()
     from old where o.id = old.id
     returning o.id, old.version as old_version`,
    params.slice(1),
  );
  if (!rows[0]) throw storageErrors.noSuchKey();
  return { id: rows[0].id, oldVersion: rows[0].old_version };
}

function duplicateToConflict(error: unknown): never {
  if (error instanceof DatabaseError && error.code === '23505')
    throw storageErrors.resourceExists();
  throw error;
}

/**
 * Refuses, as `caller`, a write that would be refused at the end (no
 * permission, or a duplicate for `create`): the very statement the upload
 * would run (so an upsert meets the UPDATE policies as well as the INSERT
 * ones), in a transaction that is rolled back.
 */
export async function assertCanWrite(
  service: StorageService,
  c: Context,
  options: {
    target: ObjectTarget;
    mode: WriteMode;
    caller: Caller;
    owner: string | undefined;
    id?: string;
  },
): Promise<void> {
  const { target, mode, caller, owner } = options;
  if (caller.role === 'service_role') return assertServiceCanWrite(service, target, mode);
  try {
    await asCaller(service, c, caller, async (tx) => {
      await writeRow(tx, mode, target, {
        id: options.id ?? randomUUID(),
        owner,
        metadata: { size: 0 },
        userMetadata: undefined,
        version: randomUUID(),
      });
      throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) duplicateToConflict(error);
  }
}

/**
 * The same refusals for the service role, which row-level security lets
 * through: only a missing bucket, a taken name (create) or a missing object
 * (update) would fail its write. One read answers them, instead of a
 * transaction of four round trips that holds a connection (PGlite's only one)
 * for a row it rolls back: the ingestion function signs an upload URL per call.
 */
async function assertServiceCanWrite(
  service: StorageService,
  target: ObjectTarget,
  mode: WriteMode,
): Promise<void> {
  const { rows } = await service.db.query<{ bucket: boolean; taken: boolean }>(
    `select exists (select 1 from storage.buckets where id = $1) as bucket,
            exists (select 1 from storage.objects where bucket_id = $1 and name = $2) as taken`,
    [target.bucketId, target.key],
  );
  const { bucket, taken } = rows[0]!;
  if (mode === 'update') {
    if (!taken) throw storageErrors.noSuchKey();
    return;
  }
  if (!bucket) throw storageErrors.noSuchBucket();
  if (mode === 'create' && taken) throw storageErrors.resourceExists();
}

/**
 * Uploads (POST), updates (PUT) and signed uploads share this. `caller` is who
 * the row-level checks run as; `owner` is who the object is recorded as.
 */
export async function writeObject(
  service: StorageService,
  c: Context,
  options: { target: ObjectTarget; mode: WriteMode; caller: Caller; owner: string | undefined },
): Promise<{ id: string; key: string }> {
  const { target, mode, caller, owner } = options;
  assertBucketId(target.bucketId);
  assertKey(target.key);
  const bucket = await bucketForUpload(service, target.bucketId);
  const limits = limitsFor(service, bucket);
  const id = randomUUID();

  // Refuse early what would be refused at the end: no permission, or a duplicate.
  await assertCanWrite(service, c, { target, mode, caller, owner, id });

  const upload = await stageUpload(c, service.tmpDir, limits);
  const version = randomUUID();
  await service.store.put(version, upload);
  let written: { id: string; oldVersion: string | null };
  try {
    written = await asCaller(service, c, caller, (tx) =>
      writeRow(tx, mode, target, {
        id,
        owner,
        metadata: objectMetadata(upload),
        userMetadata: upload.userMetadata,
        version,
      }),
    );
  } catch (error) {
    await deleteBlobsLater(service, [version]);
    duplicateToConflict(error);
  }
  if (written.oldVersion !== version) await deleteBlobsLater(service, [written.oldVersion]);
  return { id: written.id, key: `${target.bucketId}/${target.key}` };
}

export async function uploadObject(
  service: StorageService,
  c: Context,
  target: ObjectTarget,
  method: 'POST' | 'PUT',
): Promise<Response> {
  const caller = await callerFor(service, c);
  const upsert = c.req.header('x-upsert') === 'true';
  const mode: WriteMode = method === 'PUT' ? 'update' : upsert ? 'upsert' : 'create';
  const result = await writeObject(service, c, { target, mode, caller, owner: caller.owner });
  return c.json({ Id: result.id, Key: result.key });
}

const OBJECT_ROW = `name, id, bucket_id, owner, owner_id, version, metadata, user_metadata,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at,
  to_char(last_accessed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_accessed_at`;

const removeBody = z.object({
  prefixes: z
    .array(z.union([z.string(), z.object({ path: z.string(), versionId: z.string().optional() })]))
    .min(1, 'must name at least one object')
    .max(1000, 'may name at most 1,000 objects'),
});

export async function removeObjects(
  service: StorageService,
  c: Context,
  bucketId: string,
): Promise<Response> {
  assertBucketId(bucketId);
  const caller = await callerFor(service, c);
  const { prefixes } = await readBody(c, removeBody);
  const keys = prefixes.map((entry) => (typeof entry === 'string' ? entry : entry.path));
  const rows = await asCaller(service, c, caller, async (tx) => {
    const result = await tx.query<Record<string, unknown> & { version: string | null }>(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_ROW}`,
      [bucketId, keys],
    );
    return result.rows;
  });
  await deleteBlobsLater(
    service,
    rows.map((row) => row.version),
  );
  return c.json(rows);
}

export async function removeObject(
  service: StorageService,
  c: Context,
  target: ObjectTarget,
): Promise<Response> {
  const caller = await callerFor(service, c);
  const rows = await asCaller(service, c, caller, async (tx) => {
    const result = await tx.query<{ version: string | null }>(
      `delete from storage.objects where bucket_id = $1 and name = $2 returning version`,
      [target.bucketId, target.key],
    );
    return result.rows;
  });
  if (rows.length === 0) throw storageErrors.noSuchKey();
  await deleteBlobsLater(
    service,
    rows.map((row) => row.version),
  );
  return c.json({ message: 'Successfully deleted' });
}

const moveBody = z.object({
  bucketId: z.string(),
  sourceKey: z.string(),
  destinationKey: z.string(),
  destinationBucket: z.string().optional(),
  copyMetadata: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

async function readMove(c: Context) {
  const body = await readBody(c, moveBody);
  const destinationBucket = body.destinationBucket ?? body.bucketId;
  assertBucketId(body.bucketId);
  assertBucketId(destinationBucket);
  assertKey(body.sourceKey);
  assertKey(body.destinationKey);
  return { ...body, destinationBucket };
}

/**
 * Moves are a rename of the row: the blob keeps its key, so a move is atomic
 * and costs no copying. The caller needs to read and update the source and
 * to insert at the destination (checked by a rolled-back insert, as Supabase does).
 */
export async function moveObject(service: StorageService, c: Context): Promise<Response> {
  const caller = await callerFor(service, c);
  const move = await readMove(c);
  const moved = await asCaller(service, c, caller, async (tx) => {
    const source = await tx.query<{ id: string; metadata: Record<string, unknown> }>(
      `select id, metadata from storage.objects where bucket_id = $1 and name = $2 for update`,
      [move.bucketId, move.sourceKey],
    );
    const row = source.rows[0];
    if (!row) throw storageErrors.noSuchKey();
    if (move.bucketId === move.destinationBucket && move.sourceKey === move.destinationKey)
      return row.id;
    await tx.query('savepoint can_insert');
    try {
      await tx.query(
        `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata)
         values (gen_random_uuid(), $1, $2, $3, $4, $5)`,
        [
          move.destinationBucket,
          move.destinationKey,
          null,
          caller.owner ?? null,
          JSON.stringify(row.metadata),
        ],
      );
    } catch (error) {
      if (error instanceof DatabaseError && error.code === '23505')
        throw storageErrors.resourceExists();
      throw error;
    }
    await tx.query('rollback to savepoint can_insert');
    const updated = await tx.query(
      `update storage.objects set bucket_id = $3, name = $4, last_accessed_at = now()
       where bucket_id = $1 and name = $2`,
      [move.bucketId, move.sourceKey, move.destinationBucket, move.destinationKey],
    );
    if ((updated.rowCount ?? 0) === 0) throw storageErrors.accessDenied();
    return row.id;
  });
  return c.json({
    message: 'Successfully moved',
    Id: moved,
    Key: `${move.destinationBucket}/${move.destinationKey}`,
  });
}

/** Copies get a blob of their own, so deleting either object never touches the other. */
export async function copyObject(service: StorageService, c: Context): Promise<Response> {
  const caller = await callerFor(service, c);
  const copy = await readMove(c);
  const upsert = c.req.header('x-upsert') === 'true';
  const source = await asCaller(service, c, caller, async (tx) => {
    const { rows } = await tx.query<{
      version: string;
      metadata: Record<string, unknown>;
      user_metadata: unknown;
    }>(
      `select version, metadata, user_metadata from storage.objects where bucket_id = $1 and name = $2`,
      [copy.bucketId, copy.sourceKey],
    );
    return rows[0];
  });
  if (!source?.version) throw storageErrors.noSuchKey();
  await bucketForUpload(service, copy.destinationBucket);
  const version = randomUUID();
  await service.store.copy(source.version, version);
  const id = randomUUID();
  const userMetadata =
    copy.copyMetadata === false
      ? (copy.metadata ?? null)
      : (copy.metadata ?? source.user_metadata ?? null);
  let written: { id: string; oldVersion: string | null };
  try {
    written = await asCaller(service, c, caller, (tx) =>
      writeRow(
        tx,
        upsert ? 'upsert' : 'create',
        { bucketId: copy.destinationBucket, key: copy.destinationKey },
        {
          id,
          owner: caller.owner,
          metadata: { ...source.metadata, lastModified: new Date().toISOString() },
          userMetadata: (userMetadata ?? undefined) as Record<string, unknown> | undefined,
          version,
        },
      ),
    );
  } catch (error) {
    await deleteBlobsLater(service, [version]);
    duplicateToConflict(error);
  }
  await deleteBlobsLater(service, [written.oldVersion]);
  const row = await asCaller(service, c, caller, async (tx) => {
    const { rows } = await tx.query(`select ${OBJECT_ROW} from storage.objects where id = $1`, [
      written.id,
    ]);
    return rows[0] ?? {};
  }).catch(() => ({}));
  return c.json({
    ...row,
    Id: written.id,
    Key: `${copy.destinationBucket}/${copy.destinationKey}`,
  });
}
