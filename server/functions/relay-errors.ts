/**
 * The gateway's own failures, as Supabase's edge gateway answers them: a JSON
 * body `{code, message}`, the code again in `sb-error-code`, and
 * `x-relay-error: true`, which makes supabase-js report a FunctionsRelayError
 * rather than a FunctionsHttpError. A function's own responses never carry
 * that header (the gateway removes it if a function sets it).
 *
 * Codes and messages follow Supabase's documentation ("Error codes" and
 * "Status codes" of Edge Functions) and its CLI's local gateway; statuses:
 * 401 JWT refused, 404 unknown function, 405 method, 413 body too large for
 * the gateway, 500 the function failed (WORKER_ERROR), 503 it could not be
 * loaded (BOOT_ERROR) or the server is stopping, 504 no response within the
 * timeout (IDLE_TIMEOUT).
 */

export type RelayErrorCode =
  | 'UNAUTHORIZED_NO_AUTH_HEADER'
  | 'UNAUTHORIZED_INVALID_JWT_FORMAT'
  | 'UNAUTHORIZED_UNSUPPORTED_TOKEN_ALGORITHM'
  | 'UNAUTHORIZED_LEGACY_JWT'
  | 'UNAUTHORIZED_ASYMMETRIC_JWT'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'WORKER_ERROR'
  | 'BOOT_ERROR'
  | 'SHUTTING_DOWN'
  | 'IDLE_TIMEOUT';

export function relayError(
  status: 401 | 404 | 405 | 413 | 500 | 503 | 504,
  code: RelayErrorCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ code, message }), {
    status,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'x-relay-error': 'true',
      'sb-error-code': code,
      // Readable by a page on another origin, so the client sees a relay error, not a network one.
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'x-relay-error, sb-error-code',
      ...headers,
    },
  });
}

export const relayErrors = {
  notFound: () => relayError(404, 'NOT_FOUND', 'Requested function was not found'),
  methodNotAllowed: () =>
    relayError(
      405,
      'METHOD_NOT_ALLOWED',
      'Edge Functions only support GET, POST, PUT, PATCH, DELETE and OPTIONS',
      { Allow: 'GET, POST, PUT, PATCH, DELETE, OPTIONS' },
    ),
  missingAuthorization: () =>
    relayError(401, 'UNAUTHORIZED_NO_AUTH_HEADER', 'Missing authorization header'),
  invalidJwt: (
    code:
      | 'UNAUTHORIZED_INVALID_JWT_FORMAT'
      | 'UNAUTHORIZED_UNSUPPORTED_TOKEN_ALGORITHM'
      | 'UNAUTHORIZED_LEGACY_JWT'
      | 'UNAUTHORIZED_ASYMMETRIC_JWT',
  ) => relayError(401, code, 'Invalid JWT'),
  payloadTooLarge: (limit: number) =>
    relayError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`),
  workerError: () =>
    relayError(500, 'WORKER_ERROR', 'Function exited due to an error (please check logs)'),
  bootError: () => relayError(503, 'BOOT_ERROR', 'Worker failed to boot (please check logs)'),
  shuttingDown: () =>
    relayError(503, 'SHUTTING_DOWN', 'The server is shutting down: try again', {
      'Retry-After': '1',
    }),
  timeout: (timeoutMs: number) =>
    relayError(
      504,
      'IDLE_TIMEOUT',
      `Function did not respond within the request timeout (${timeoutMs} ms)`,
    ),
};
