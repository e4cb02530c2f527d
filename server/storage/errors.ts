import type { Context } from 'hono';
import { DatabaseError } from '../db/database';

/**
 * Supabase Storage's error wire shape (contract §4):
 * `{statusCode: "<logical status>", code, error, message}`, sent with HTTP 400
 * for every logical 4xx and 500 for 500, except where Storage answers with a
 * real status (`httpStatus`: 403 for a refused role, 416 for a bad range).
 */
export class StorageError extends Error {
  override name = 'StorageError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly error: string = code,
    readonly httpStatus: number = statusCode >= 500 ? 500 : 400,
  ) {
    super(message);
  }

  toJSON(): Record<string, string> {
    return {
      statusCode: String(this.statusCode),
      code: this.code,
      error: this.error,
      message: this.message,
    };
  }
}

export const storageErrors = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  bucketExists: () =>
    new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  keyExists: () =>
    new StorageError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  resourceExists: () =>
    new StorageError(409, 'ResourceAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () =>
    new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  tooLarge: () =>
    new StorageError(
      413,
      'EntityTooLarge',
      'The object exceeded the maximum allowed size',
      'Payload too large',
    ),
  /** A JSON body over its limit: Storage (Fastify's bodyLimit) answers a real 413. */
  bodyTooLarge: () =>
    new StorageError(413, 'EntityTooLarge', 'Request body is too large', 'Payload too large', 413),
  mimeType: (mimeType: string) =>
    new StorageError(
      415,
      'InvalidMimeType',
      `mime type ${mimeType} is not supported`,
      'invalid_mime_type',
    ),
  accessDenied: (message = 'new row violates row-level security policy') =>
    new StorageError(403, 'AccessDenied', message, 'Unauthorized'),
  invalidBucketName: () =>
    new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  expiredToken: () => new StorageError(400, 'ExpiredToken', 'The provided token has expired.'),
  invalidSignature: (message = 'Invalid signature') =>
    new StorageError(400, 'InvalidSignature', message),
  invalidFileSizeLimit: () =>
    new StorageError(
      400,
      'InvalidRequest',
      'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
    ),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  invalidRange: () =>
    new StorageError(416, 'InvalidRange', 'invalid range provided', 'invalid_range', 416),
  notFound: () => new StorageError(404, 'NotFound', 'Route not found', 'Not Found'),
  internal: () => new StorageError(500, 'InternalError', 'Internal Server Error', 'Internal'),
};

/** Database failures the caller caused, in Storage's words; anything else is rethrown. */
export function fromDatabaseError(error: unknown): StorageError | undefined {
  if (!(error instanceof DatabaseError)) return undefined;
  switch (error.code) {
    case 'PGRST':
      // auth.require_live_session: the token's session ended or its user is banned.
      return new StorageError(403, 'InvalidJWT', 'jwt session has ended', 'Unauthorized', 401);
    case '42501':
      return storageErrors.accessDenied(
        /row-level security/.test(error.message)
          ? 'new row violates row-level security policy'
          : error.message,
      );
    case '23503':
      // Deleting a bucket that still holds objects, or writing into one that does not exist.
      return /delete on table "buckets"/.test(error.message)
        ? storageErrors.bucketNotEmpty()
        : storageErrors.noSuchBucket();
    case '22P02':
    case '22023':
      return storageErrors.invalidRequest(error.message);
    default:
      return undefined;
  }
}

export function storageErrorResponse(c: Context, error: StorageError): Response {
  return c.body(JSON.stringify(error.toJSON()), error.httpStatus as 400, {
    'Content-Type': 'application/json; charset=utf-8',
  });
}
