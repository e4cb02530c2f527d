import type { Context } from 'hono';
import { z } from 'zod';
import { JwtVerificationError } from '../keys/key-ring';
import type { Caller } from './caller';
import { findObject } from './download';
import { storageErrors } from './errors';
import { assertBucketId, assertKey, isValidKey } from './names';
import { assertCanWrite, writeObject } from './objects';
import { describeTransform, hasTransform, parseTransform } from './render';
import { readBody } from './request-body';
import { asCaller, callerFor, type StorageService } from './service';

/**
 * Signed URLs. A download token is a JWT `{url: "<bucket>/<key>", scope:
 * "download"}` and an upload token `{url, owner, upsert, scope: "upload"}`,
 * signed by the same key ring as every other token (as Supabase signs them
 * with the project's JWT key). Signing needs the caller to be allowed the
 * operation now; using the token then needs nothing but the token.
 */

const MAX_EXPIRY_SECONDS = 10 * 365 * 24 * 3600;

const expiresIn = z.coerce.number().int().min(1).max(MAX_EXPIRY_SECONDS);

/** Paths in signed URLs are raw, as Supabase sends them: the client encodes the URL itself. */
const rawPath = (bucketId: string, key: string) => `${bucketId}/${key}`;

async function downloadToken(
  service: StorageService,
  bucketId: string,
  key: string,
  seconds: number,
  transformations?: string,
) {
  return service.ring.sign(
    {
      url: `${bucketId}/${key}`,
      scope: 'download',
      ...(transformations ? { transformations } : {}),
    },
    { expiresInSeconds: seconds },
  );
}

export async function signObject(
  service: StorageService,
  c: Context,
  bucketId: string,
  key: string,
): Promise<Response> {
  const caller = await callerFor(service, c);
  const body = await readBody(c, z.object({ expiresIn, transform: z.unknown().optional() }));
  const transform = parseTransform(body.transform ?? {});
  await asCaller(service, c, caller, (tx) => findObject(tx, bucketId, key));
  if (hasTransform(transform)) {
    const transformations = describeTransform(transform);
    const token = await downloadToken(service, bucketId, key, body.expiresIn, transformations);
    return c.json({ signedURL: `/render/image/sign/${rawPath(bucketId, key)}?token=${token}` });
  }
  const token = await downloadToken(service, bucketId, key, body.expiresIn);
  return c.json({ signedURL: `/object/sign/${rawPath(bucketId, key)}?token=${token}` });
}

export async function signObjects(
  service: StorageService,
  c: Context,
  bucketId: string,
): Promise<Response> {
  assertBucketId(bucketId);
  const caller = await callerFor(service, c);
  const body = await readBody(
    c,
    z.object({ expiresIn, paths: z.array(z.string()).min(1).max(1000) }),
  );
  const paths = body.paths;
  const visible = await asCaller(service, c, caller, async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      `select name from storage.objects where bucket_id = $1 and name = any($2::text[])`,
      [bucketId, paths.filter(isValidKey)],
    );
    return new Set(rows.map((row) => row.name));
  });
  const results = await Promise.all(
    paths.map(async (path) => {
      if (!visible.has(path)) {
        return {
          error: 'Either the object does not exist or you do not have access to it',
          path,
          signedURL: null,
        };
      }
      const token = await downloadToken(service, bucketId, path, body.expiresIn);
      return {
        error: null,
        path,
        signedURL: `/object/sign/${rawPath(bucketId, path)}?token=${token}`,
      };
    }),
  );
  return c.json(results);
}

interface TokenClaims {
  url?: unknown;
  transformations?: unknown;
  scope?: unknown;
  owner?: unknown;
  upsert?: unknown;
}

/** The token's claims, when it is valid and made for exactly this object and use. */
export async function verifyObjectToken(
  service: StorageService,
  token: string | undefined,
  bucketId: string,
  key: string,
  scope: 'download' | 'upload',
): Promise<TokenClaims> {
  if (!token) throw storageErrors.invalidSignature('Missing token');
  let claims: TokenClaims;
  try {
    claims = (await service.ring.verify(token)) as TokenClaims;
  } catch (error) {
    if (error instanceof JwtVerificationError) {
      throw error.reason === 'expired'
        ? storageErrors.expiredToken()
        : storageErrors.invalidSignature();
    }
    throw error;
  }
  if (claims.scope !== scope || claims.url !== `${bucketId}/${key}`) {
    throw storageErrors.invalidSignature('The token is not valid for this object');
  }
  return claims;
}

export async function signUpload(
  service: StorageService,
  c: Context,
  bucketId: string,
  key: string,
): Promise<Response> {
  assertBucketId(bucketId);
  assertKey(key);
  const caller = await callerFor(service, c);
  const upsert = c.req.header('x-upsert') === 'true';
  // The caller must be allowed now to write there as the token will: the write
  // an upload of theirs would make, rolled back, as Supabase checks it. A plain
  // insert (a duplicate refused), or with upsert an insert that updates the
  // existing object, so the UPDATE policies decide too: a token that may
  // replace someone's object is never given to a caller who may only insert.
  await assertCanWrite(service, c, {
    target: { bucketId, key },
    mode: upsert ? 'upsert' : 'create',
    caller,
    owner: caller.owner,
  });
  const token = await service.ring.sign(
    { url: `${bucketId}/${key}`, scope: 'upload', owner: caller.owner, upsert },
    { expiresInSeconds: service.config.uploadUrlExpiresSeconds },
  );
  return c.json({ url: `/object/upload/sign/${rawPath(bucketId, key)}?token=${token}`, token });
}

export async function uploadWithToken(
  service: StorageService,
  c: Context,
  bucketId: string,
  key: string,
): Promise<Response> {
  const claims = await verifyObjectToken(service, c.req.query('token'), bucketId, key, 'upload');
  const owner = typeof claims.owner === 'string' ? claims.owner : undefined;
  const caller: Caller = {
    role: 'service_role',
    claims: { role: 'service_role', sub: owner },
    owner,
  };
  const result = await writeObject(service, c, {
    target: { bucketId, key },
    mode: claims.upsert === true ? 'upsert' : 'create',
    caller,
    owner,
  });
  return c.json({ Id: result.id, Key: result.key });
}
