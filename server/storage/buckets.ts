import type { Context } from 'hono';
import { z } from 'zod';
import { DatabaseError } from '../db/database';
import { parseByteSize } from './byte-size';
import { storageErrors } from './errors';
import { assertBucketId } from './names';
import { readBody } from './request-body';
import { asCaller, callerFor, deleteBlobsLater, iso, type StorageService } from './service';

/** `/bucket` routes (contract §4): list, get, create, update, empty, delete. */

const BUCKET_COLUMNS = `id, name, owner, public, file_size_limit, allowed_mime_types,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at`;

const MIME_PATTERN = /^(\*|[a-z0-9!#$&^_.+-]+)\/(\*|[a-z0-9!#$&^_.+-]+)$/i;

const mimeTypes = z
  .array(z.string().trim().regex(MIME_PATTERN, 'must be MIME types like image/png or image/*'))
  .max(200)
  .nullable();

const fileSizeLimit = z.union([z.number(), z.string(), z.null()]);

const bucketBody = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  public: z.boolean().optional(),
  file_size_limit: fileSizeLimit.optional(),
  allowed_mime_types: mimeTypes.optional(),
  type: z.enum(['STANDARD']).optional(),
});

function sizeLimit(service: StorageService, value: number | string | null | undefined) {
  if (value === undefined || value === null) return value;
  const bytes = parseByteSize(value);
  if (bytes === undefined) throw storageErrors.invalidFileSizeLimit();
  if (bytes > service.config.fileSizeLimit) {
    throw storageErrors.invalidRequest(
      `file_size_limit is larger than this server's limit of ${service.config.fileSizeLimit} bytes`,
    );
  }
  return bytes === 0 ? null : bytes;
}

export async function listBuckets(service: StorageService, c: Context): Promise<Response> {
  const caller = await callerFor(service, c);
  const query = c.req.query();
  const limit = query.limit === undefined ? null : Number(query.limit);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  if (
    (limit !== null && !(Number.isInteger(limit) && limit >= 0)) ||
    !(Number.isInteger(offset) && offset >= 0)
  ) {
    throw storageErrors.invalidRequest('limit and offset must be whole numbers');
  }
  const column = query.sortColumn ?? 'name';
  if (!['id', 'name', 'created_at', 'updated_at'].includes(column)) {
    throw storageErrors.invalidRequest('sortColumn must be id, name, created_at or updated_at');
  }
  const order = (query.sortOrder ?? 'asc').toLowerCase();
  if (order !== 'asc' && order !== 'desc')
    throw storageErrors.invalidRequest('sortOrder must be asc or desc');
  const rows = await asCaller(service, c, caller, async (tx) => {
    const result = await tx.query(
      `select ${BUCKET_COLUMNS}, type from storage.buckets
       where ($1::text is null or name ilike '%' || replace(replace(replace($1, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
       order by ${column} ${order}, id limit $2 offset $3`,
      [query.search ?? null, limit, offset],
    );
    return result.rows;
  });
  return c.json(rows);
}

export async function getBucket(
  service: StorageService,
  c: Context,
  bucketId: string,
): Promise<Response> {
  assertBucketId(bucketId);
  const caller = await callerFor(service, c);
  const row = await asCaller(service, c, caller, async (tx) => {
    const { rows } = await tx.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [
      bucketId,
    ]);
    return rows[0];
  });
  if (!row) throw storageErrors.noSuchBucket();
  return c.json(row);
}

export async function createBucket(service: StorageService, c: Context): Promise<Response> {
  const caller = await callerFor(service, c);
  const body = await readBody(c, bucketBody);
  const id = body.id ?? body.name;
  const name = body.name ?? id;
  assertBucketId(id);
  assertBucketId(name);
  const limit = sizeLimit(service, body.file_size_limit);
  try {
    await asCaller(service, c, caller, (tx) =>
      tx.query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          id,
          name,
          caller.owner && /^[0-9a-f-]{36}$/i.test(caller.owner) ? caller.owner : null,
          caller.owner ?? null,
          body.public ?? false,
          limit ?? null,
          body.allowed_mime_types ?? null,
        ],
      ),
    );
  } catch (error) {
    if (error instanceof DatabaseError && error.code === '23505')
      throw storageErrors.bucketExists();
    throw error;
  }
  return c.json({ name });
}

export async function updateBucket(
  service: StorageService,
  c: Context,
  bucketId: string,
): Promise<Response> {
  assertBucketId(bucketId);
  const caller = await callerFor(service, c);
  const body = await readBody(c, bucketBody);
  const sets: string[] = [];
  const params: unknown[] = [bucketId];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (body.public !== undefined) set('public', body.public);
  if (body.file_size_limit !== undefined)
    set('file_size_limit', sizeLimit(service, body.file_size_limit) ?? null);
  if (body.allowed_mime_types !== undefined) set('allowed_mime_types', body.allowed_mime_types);
  sets.push('updated_at = now()');
  const updated = await asCaller(service, c, caller, async (tx) => {
    const { rowCount } = await tx.query(
      `update storage.buckets set ${sets.join(', ')} where id = $1`,
      params,
    );
    return rowCount ?? 0;
  });
  if (updated === 0) throw storageErrors.noSuchBucket();
  return c.json({ message: 'Successfully updated' });
}

export async function emptyBucket(
  service: StorageService,
  c: Context,
  bucketId: string,
): Promise<Response> {
  assertBucketId(bucketId);
  const caller = await callerFor(service, c);
  const versions = await asCaller(service, c, caller, async (tx) => {
    const bucket = await tx.query(`select 1 from storage.buckets where id = $1`, [bucketId]);
    if (bucket.rows.length === 0) throw storageErrors.noSuchBucket();
    const { rows } = await tx.query<{ version: string | null }>(
      `delete from storage.objects where bucket_id = $1 returning version`,
      [bucketId],
    );
    return rows.map((row) => row.version);
  });
  await deleteBlobsLater(service, versions);
  return c.json({ message: 'Empty bucket has been queued. Completion may take up to an hour.' });
}

export async function deleteBucket(
  service: StorageService,
  c: Context,
  bucketId: string,
): Promise<Response> {
  assertBucketId(bucketId);
  const caller = await callerFor(service, c);
  // A bucket with objects is refused by the objects' foreign key (-> ResourceNotEmpty).
  const deleted = await asCaller(service, c, caller, async (tx) => {
    const { rowCount } = await tx.query(`delete from storage.buckets where id = $1`, [bucketId]);
    return rowCount ?? 0;
  });
  if (deleted === 0) throw storageErrors.noSuchBucket();
  return c.json({ message: 'Successfully deleted' });
}
