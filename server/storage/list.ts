import type { Context } from 'hono';
import { z } from 'zod';
import { storageErrors } from './errors';
import { assertBucketId } from './names';
import { readBody } from './request-body';
import { asCaller, callerFor, iso, type StorageService } from './service';

/**
 * Listing, as the caller (row-level security hides what they may not read, and
 * the folders derived from it). v1 lists one folder level: sub-folders as
 * entries with null id and dates, then files by their base name. v2 lists keys
 * under a raw prefix, whole or folded at `/`, in pages with an opaque cursor.
 */

const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

const listV1Body = z.object({
  prefix: z.string().max(1024).optional(),
  limit: z.coerce.number().int().min(1).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  search: z.string().max(1024).optional(),
  sortBy: z
    .object({
      column: z.enum(['name', 'updated_at', 'created_at', 'last_accessed_at']).optional(),
      order: z.string().optional(),
    })
    .optional(),
});

function orderOf(value: string | undefined): 'asc' | 'desc' {
  const order = (value ?? 'asc').toLowerCase();
  if (order !== 'asc' && order !== 'desc')
    throw storageErrors.invalidRequest('sortBy/order must be asc or desc');
  return order;
}

export async function listObjects(
  service: StorageService,
  c: Context,
  bucketId: string,
): Promise<Response> {
  assertBucketId(bucketId);
  const caller = await callerFor(service, c);
  const body = await readBody(c, listV1Body);
  let prefix = body.prefix ?? '';
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  const limit = Math.min(body.limit ?? 100, 1500);
  const offset = body.offset ?? 0;
  const column = body.sortBy?.column ?? 'name';
  const order = orderOf(body.sortBy?.order);
  const sortKey = column === 'name' ? `lower(name) collate "C"` : column;
  const rows = await asCaller(service, c, caller, async (tx) => {
    const result = await tx.query(
      `with children as (
         select split_part(substr(name, $3 + 1), '/', 1) as child,
                strpos(substr(name, $3 + 1), '/') > 0 as is_folder,
                id, updated_at, created_at, last_accessed_at, metadata
         from storage.objects
         where bucket_id = $1 and name like $2 escape '\\'
       ), entries as (
         select distinct child as name, null::uuid as id, null::timestamptz as updated_at,
                null::timestamptz as created_at, null::timestamptz as last_accessed_at, null::jsonb as metadata
         from children where is_folder
         union all
         select child, id, updated_at, created_at, last_accessed_at, metadata from children where not is_folder
       )
       select name, id, ${iso('updated_at')} as updated_at, ${iso('created_at')} as created_at,
              ${iso('last_accessed_at')} as last_accessed_at, metadata
       from entries
       where $4::text is null or lower(name) like lower($4) escape '\\'
       order by ${sortKey} ${order} nulls first, lower(name) collate "C" ${order}
       limit $5 offset $6`,
      [
        bucketId,
        likePrefix(prefix),
        [...prefix].length,
        body.search ? likePrefix(body.search) : null,
        limit,
        offset,
      ],
    );
    return result.rows;
  });
  return c.json(rows);
}

const listV2Body = z.object({
  prefix: z.string().max(1024).optional(),
  limit: z.coerce.number().int().min(1).optional(),
  cursor: z.string().max(4096).optional(),
  with_delimiter: z.boolean().optional(),
  sortBy: z
    .object({
      column: z.enum(['name', 'updated_at', 'created_at']).optional(),
      order: z.string().optional(),
    })
    .optional(),
});

interface Cursor {
  /** The last entry's sort value and name. */
  v: string | null;
  n: string;
}

function readCursor(text: string | undefined): Cursor | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (typeof value.n === 'string' && (value.v === null || typeof value.v === 'string'))
      return value;
  } catch {
    // fall through
  }
  throw storageErrors.invalidRequest('cursor is not valid');
}

const writeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

export async function listObjectsV2(
  service: StorageService,
  c: Context,
  bucketId: string,
): Promise<Response> {
  assertBucketId(bucketId);
  const caller = await callerFor(service, c);
  const body = await readBody(c, listV2Body);
  const prefix = body.prefix ?? '';
  const limit = Math.min(body.limit ?? 1000, 1000);
  const delimited = body.with_delimiter === true;
  const column = body.sortBy?.column ?? 'name';
  const order = orderOf(body.sortBy?.order);
  const cursor = readCursor(body.cursor);
  const comparison = order === 'asc' ? '>' : '<';
  const sortValue = column === 'name' ? `name collate "C"` : `${column}`;
  const cursorValue = column === 'name' ? `$4 collate "C"` : `$4::timestamptz`;
  const rows = await asCaller(service, c, caller, async (tx) => {
    const result = await tx.query<
      {
        name: string;
        is_folder: boolean;
        id: string | null;
        sort_value: string | null;
      } & Record<string, unknown>
    >(
      `with matching as (
         select name, id, updated_at, created_at, last_accessed_at, metadata,
                case when $5 and strpos(substr(name, $3 + 1), '/') > 0
                  then left(name, $3 + strpos(substr(name, $3 + 1), '/')) end as folder
         from storage.objects
         where bucket_id = $1 and name like $2 escape '\\'
       ), entries as (
         -- A folder sorts by its earliest object's dates.
         select folder as name, true as is_folder, null::uuid as id, min(updated_at) as updated_at,
                min(created_at) as created_at, null::timestamptz as last_accessed_at, null::jsonb as metadata
         from matching where folder is not null group by folder
         union all
         select name, false, id, updated_at, created_at, last_accessed_at, metadata from matching where folder is null
       )
       select name, is_folder, id, ${iso('updated_at')} as updated_at, ${iso('created_at')} as created_at,
              ${iso('last_accessed_at')} as last_accessed_at, metadata,
              ${column === 'name' ? 'name' : `(${column})::text`} as sort_value
       from entries
       where $4::text is null
          or (${sortValue}, name collate "C") ${comparison} (${cursorValue}, $6 collate "C")
       order by ${sortValue} ${order}, name collate "C" ${order}
       limit $7`,
      [
        bucketId,
        likePrefix(prefix),
        [...prefix].length,
        cursor ? cursor.v : null,
        delimited,
        cursor?.n ?? '',
        limit + 1,
      ],
    );
    return result.rows;
  });
  const hasNext = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return c.json({
    hasNext,
    ...(hasNext && last ? { nextCursor: writeCursor({ v: last.sort_value, n: last.name }) } : {}),
    folders: page
      .filter((row) => row.is_folder)
      .map((row) => ({ key: row.name.slice(0, -1), name: row.name })),
    objects: page
      .filter((row) => !row.is_folder)
      .map(({ is_folder: _folder, sort_value: _sort, ...row }) => row),
  });
}
