import type { DatabaseError } from '../db/database';

/**
 * PostgREST's error body `{code, message, details, hint}` and status, decided
 * here for every error /rest/v1 answers: its own (PGRSTxxx) and PostgreSQL's
 * (the SQLSTATE as code, mapped to a status as PostgREST maps it).
 */
export class RestError extends Error {
  override name = 'RestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** A sentence, or structured data (PGRST201 lists the candidate relationships). */
    readonly details: unknown = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toJSON() {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/** A parse error in PostgREST's parsec wording: message names the input, details what was expected. */
export function parseError(what: string, input: string, details: string): RestError {
  return new RestError(
    400,
    'PGRST100',
    `"failed to parse ${what} (${input})" (line 1, column 1)`,
    details,
  );
}

export const restErrors = {
  invalidBody: (message: string) => new RestError(400, 'PGRST102', message),
  /** PostgREST has no limit of its own (Supabase's gateway has one): its invalid-body code, with 413. */
  bodyTooLarge: (limit: number, role: string) =>
    new RestError(
      413,
      'PGRST102',
      'Request body is too large',
      `The body exceeds ${limit} bytes, the limit for the ${role} role`,
      role === 'anon' ? 'Sign in to send larger bodies' : null,
    ),
  invalidRange: (details: string) =>
    new RestError(416, 'PGRST103', 'Requested range not satisfiable', details),
  unacceptableSchema: (schema: string, exposed: string[]) =>
    new RestError(
      406,
      'PGRST106',
      `Invalid schema: ${schema}`,
      null,
      `Only the following schemas are exposed: ${exposed.join(', ')}`,
    ),
  mediaType: (types: string[]) =>
    new RestError(406, 'PGRST107', `None of these media types are available: ${types.join(', ')}`),
  notEmbedded: (resource: string) =>
    new RestError(
      400,
      'PGRST108',
      `'${resource}' is not an embedded resource in this request`,
      null,
      `Verify that '${resource}' is included in the 'select' query parameter.`,
    ),
  singularity: (rows: number) =>
    new RestError(
      406,
      'PGRST116',
      'Cannot coerce the result to a single JSON object',
      `The result contains ${rows} rows`,
    ),
  unsupportedMethod: (method: string) =>
    new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`),
  relatedOrderNotToOne: (origin: string, target: string) =>
    new RestError(
      400,
      'PGRST118',
      `A related order on '${target}' is not possible`,
      `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
    ),
  unacceptableFilter: (target: string) =>
    new RestError(
      400,
      'PGRST120',
      `Bad operator on the '${target}' embedded resource`,
      'Only is null or not is null filters are allowed on embedded resources',
    ),
  invalidPreferences: (preferences: string[]) =>
    new RestError(
      400,
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: ${preferences.join(', ')}`,
    ),
  aggregatesNotAllowed: () =>
    new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed'),
  maxAffected: (rows: number) =>
    new RestError(
      400,
      'PGRST124',
      'Query result exceeds max-affected preference constraint',
      `The query affects ${rows} rows`,
    ),
  invalidPath: () => new RestError(404, 'PGRST125', 'Invalid path specified in request URL'),
  notImplemented: (details: string) =>
    new RestError(400, 'PGRST127', 'Feature not implemented', details),
  invalidRpcMethod: (method: string) =>
    new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`),
  putLimit: () =>
    new RestError(400, 'PGRST114', 'limit/offset querystring parameters are not allowed for PUT'),
  putMatchingPk: () =>
    new RestError(400, 'PGRST115', 'Payload values do not match URL in primary key column(s)'),
  invalidFilters: () =>
    new RestError(
      405,
      'PGRST105',
      "Filters must include all and only primary key columns with 'eq' operators",
    ),
  columnNotFound: (relation: string, column: string) =>
    new RestError(
      400,
      'PGRST204',
      `Could not find the '${column}' column of '${relation}' in the schema cache`,
    ),
  /** What PostgreSQL would say; answered without sending an unknown identifier to the database. */
  undefinedColumn: (relation: string, column: string) =>
    new RestError(400, '42703', `column ${relation}.${column} does not exist`),
  jwt: (message: string, code = 'PGRST301') =>
    new RestError(401, code, message, null, null, {
      'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message}"`,
    }),
};

/** PostgREST's SQLSTATE → HTTP status mapping (Error.hs, mapSQLtoHTTP). */
export function statusForSqlState(code: string, message: string, isAuthenticated: boolean): number {
  if (code.startsWith('08')) return 503;
  if (code.startsWith('09')) return 500;
  if (code.startsWith('0L') || code.startsWith('0P')) return 403;
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '21000':
      return message.endsWith('requires a WHERE clause') ? 400 : 500;
    case '22023':
      return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400;
    case '53400':
      return 500;
    case '57P01':
      return 503;
    case 'P0001':
      return 400;
    case '42883':
      return message.startsWith('function xmlagg(') ? 406 : 404;
    case '42P01':
      return 404;
    case '42P17':
      return 500;
    case '42501':
      return isAuthenticated ? 403 : 401;
  }
  const prefix = code.slice(0, 2);
  if (
    ['25', '2D', '38', '39', '3B', '40', '54', '55', '57', '58', 'F0', 'HV', 'XX'].includes(prefix)
  )
    return 500;
  if (prefix === '28') return 403;
  if (prefix === '53') return 503;
  if (prefix === 'P0') return 500;
  if (prefix === 'PT') {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500;
  }
  return 400;
}

/**
 * A database error as PostgREST answers it. RAISE SQLSTATE 'PGRST' with a
 * JSON message and detail gives full control of code, message and status.
 */
export function fromDatabaseError(error: DatabaseError, isAuthenticated: boolean): RestError {
  if (error.code === 'PGRST') {
    try {
      const message = JSON.parse(error.message) as Record<string, unknown>;
      const detail = JSON.parse(error.detail ?? '') as Record<string, unknown>;
      if (
        typeof message.code === 'string' &&
        typeof message.message === 'string' &&
        typeof detail.status === 'number'
      ) {
        const headers = (
          typeof detail.headers === 'object' && detail.headers !== null ? detail.headers : {}
        ) as Record<string, string>;
        return new RestError(
          detail.status,
          message.code,
          message.message,
          typeof message.details === 'string' ? message.details : null,
          typeof message.hint === 'string' ? message.hint : null,
          headers,
        );
      }
    } catch {
      // fall through to PostgREST's parse error
    }
    return new RestError(
      500,
      'PGRST121',
      'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error',
      null,
      "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    );
  }
  const status = statusForSqlState(error.code, error.message, isAuthenticated);
  return new RestError(
    status,
    error.code,
    error.message,
    error.detail ?? null,
    error.hint ?? null,
    status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {},
  );
}
