import path from 'node:path';
import { z } from 'zod';
import { authEnvironmentSchema, toAuthConfig, type AuthConfig } from './auth/auth-config';
import { parseByteSize } from './storage/byte-size';
import { parseTrustProxy, type TrustProxy } from './http/client-ip';

/**
 * The server's whole configuration, read once from the environment in main.ts
 * and passed down. Nothing else reads process.env.
 */

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const httpUrl = z
  .string()
  .trim()
  .url()
  .refine((value) => /^https?:\/\//.test(value), 'must start with http:// or https://')
  .transform((value) => value.replace(/\/+$/, ''));

const platformEnvironmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('::'),
  SITE_URL: httpUrl.optional(),
  API_URL: httpUrl.optional(),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  SITE_DIR: optionalText,
  SUPABASE_DIR: optionalText,
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  EMBEDDED_VACUUM_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
  PGLITE_EXTENSIONS: z
    .string()
    .trim()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['pgcrypto', 'uuid_ossp', 'citext', 'pg_trgm']))),
  JWT_SECRET: optionalText.pipe(
    z.string().min(32, 'must be at least 32 characters long').optional(),
  ),
  JWT_KEYS: optionalText,
  ANON_KEY: optionalText,
  SERVICE_ROLE_KEY: optionalText,
  JWT_EXP: z.coerce.number().int().min(30).max(604800).default(3600),
  JWT_ISSUER: optionalText,
  SCHEDULER_URL: httpUrl.default('https://calendly.com/cervana/30min'),
  SCHEDULER_SCRIPT_URL: httpUrl.default('https://assets.calendly.com/assets/external/widget.js'),
  SEED_SAMPLE_DATA: booleanFromString.default(true),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context): TrustProxy => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(60000).default(4000),
  SHUTDOWN_IDLE_GRACE_MS: z.coerce.number().int().min(10).max(10000).default(250),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600000).default(15000),
  IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3600000).default(65000),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1000000).default(1024),
  STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600000).default(8000),
  SALES_INBOX: z.string().trim().email().default('sales@cervana.ai'),
  STORAGE_BACKEND: z.enum(['fs', 's3']).default('fs'),
  STORAGE_FILE_SIZE_LIMIT: z
    .string()
    .trim()
    .default('500mb')
    .transform((value, context) => {
      const bytes = parseByteSize(value);
      if (bytes === undefined || bytes < 1) {
        context.addIssue({ code: 'custom', message: 'must be a size like 500mb, 2gb or 1048576' });
        return z.NEVER;
      }
      return bytes;
    }),
  STORAGE_UPLOAD_URL_EXPIRES: z.coerce.number().int().min(1).max(604800).default(7200),
  STORAGE_S3_BUCKET: optionalText,
  STORAGE_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  STORAGE_S3_ENDPOINT: httpUrl.optional(),
  STORAGE_S3_ACCESS_KEY_ID: optionalText,
  STORAGE_S3_SECRET_ACCESS_KEY: optionalText,
  STORAGE_S3_FORCE_PATH_STYLE: booleanFromString.optional(),
  STORAGE_S3_PREFIX: z.string().trim().default(''),
  STORAGE_RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  STORAGE_RENDER_QUEUE: z.coerce.number().int().min(0).max(10000).default(8),
  STORAGE_RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(600000).default(10000),
  STORAGE_RENDER_RATE_LIMIT: z.coerce.number().int().min(1).max(1000000).default(120),
  STORAGE_RENDER_PER_CALLER: z.coerce.number().int().min(1).max(1000).default(4),
  STORAGE_RENDER_CACHE_SIZE: z
    .string()
    .trim()
    .default('64mb')
    .transform((value, context) => {
      const bytes = parseByteSize(value);
      if (bytes === undefined) {
        context.addIssue({ code: 'custom', message: 'must be a size like 64mb, or 0' });
        return z.NEVER;
      }
      return bytes;
    }),
  REALTIME_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).max(10_000_000).default(262_144),
  REALTIME_MAX_CHANNELS_PER_SOCKET: z.coerce.number().int().min(1).max(10_000).default(100),
  REALTIME_JOINS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(100),
  REALTIME_MESSAGES_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(100),
  REALTIME_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  REALTIME_MAX_BUFFERED_BYTES: z.coerce
    .number()
    .int()
    .min(65_536)
    .max(1_000_000_000)
    .default(4_194_304),
  FUNCTIONS_DIR: optionalText,
  FUNCTIONS_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
  FUNCTIONS_MAX_BODY_BYTES: z
    .string()
    .trim()
    .default('20mb')
    .transform((value, context) => {
      const bytes = parseByteSize(value);
      if (bytes === undefined || bytes < 1) {
        context.addIssue({
          code: 'custom',
          message: 'must be a size like 20mb, or a number of bytes',
        });
        return z.NEVER;
      }
      return bytes;
    }),
  REST_SCHEMAS: z
    .string()
    .trim()
    .default('public')
    .transform((value) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be schema names')).min(1)),
});

const environmentSchema = platformEnvironmentSchema
  .extend(authEnvironmentSchema.shape)
  .superRefine((values, context) => {
    if (values.STORAGE_BACKEND === 's3' && !values.STORAGE_S3_BUCKET) {
      context.addIssue({
        code: 'custom',
        path: ['STORAGE_S3_BUCKET'],
        message: 'is required when STORAGE_BACKEND=s3',
      });
    }
    if (values.STORAGE_BACKEND === 's3' && values.STORAGE_FILE_SIZE_LIMIT > 5_000_000_000) {
      // One PUT (or copy) holds at most 5 GB on S3.
      context.addIssue({
        code: 'custom',
        path: ['STORAGE_FILE_SIZE_LIMIT'],
        message: 'must be at most 5gb with STORAGE_BACKEND=s3',
      });
    }
    if (
      values.FUNCTIONS_TIMEOUT_MS !== undefined &&
      values.FUNCTIONS_TIMEOUT_MS >= values.IDLE_TIMEOUT_MS
    ) {
      // The connection would be closed as idle before the function's 504 could be sent.
      context.addIssue({
        code: 'custom',
        path: ['FUNCTIONS_TIMEOUT_MS'],
        message: `must be less than IDLE_TIMEOUT_MS (${values.IDLE_TIMEOUT_MS})`,
      });
    }
  });

export type Environment = z.input<typeof environmentSchema>;

/**
 * `/realtime/v1` limits, per socket: the largest frame, channels joined at
 * once, joins and messages per second, and the bytes a slow consumer may
 * leave unread before it is disconnected.
 */
export interface RealtimeConfig {
  maxMessageBytes: number;
  maxChannelsPerSocket: number;
  joinsPerSecond: number;
  messagesPerSecond: number;
  maxBufferedBytes: number;
  /** A socket that sends nothing (not even a heartbeat) for this long is closed, as Phoenix does. */
  idleTimeoutMs: number;
}

/**
 * Edge functions (`/functions/v1/<name>`, server/functions): where they are,
 * the `config.toml` beside that folder (`verify_jwt`), how long one call may
 * take to answer, and the largest request body the gateway passes on.
 */
export interface FunctionsConfig {
  /** `<name>/index.ts` sources (bundled on first call) or `<name>/index.mjs` bundles (the build's). */
  dir: string;
  /** `config.toml` beside `dir` (supabase/config.toml for supabase/functions). */
  configFile: string;
  timeoutMs: number;
  maxBodyBytes: number;
}

export interface Config {
  port: number;
  host: string;
  /** Public URL of the site, without a trailing slash. */
  siteUrl: string;
  /** Public base URL of the Supabase-compatible API the browser talks to (`/config.json`). */
  apiUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Contrib extensions the embedded database loads (start-up cost each). */
  pgliteExtensions: string[];
  /** How often the server vacuums and analyzes the embedded database (it has no autovacuum); 0 turns it off. */
  embeddedVacuumIntervalMs: number;
  jwt: {
    secret: string | undefined;
    keys: string | undefined;
    anonKey: string | undefined;
    serviceRoleKey: string | undefined;
    expirySeconds: number;
    issuer: string;
  };
  scheduler: { url: string; scriptUrl: string };
  auth: AuthConfig;
  /** Where sales notifications go. */
  salesInbox: string;
  storage: StorageConfig;
  /** The schemas /rest/v1 exposes, the first being the default. */
  restSchemas: string[];
  realtime: RealtimeConfig;
  functions: FunctionsConfig;
  seedSampleData: boolean;
  trustProxy: TrustProxy;
  log: { level: string; format: 'json' | 'pretty' };
  shutdownTimeoutMs: number;
  /**
   * HTTP connection limits: how long a request's headers may take to arrive,
   * how long a connection may sit with no bytes moving (between requests or
   * within one: a large upload on a slow link is never cut off while it moves),
   * and how many connections are open at once.
   */
  http: {
    headersTimeoutMs: number;
    idleTimeoutMs: number;
    maxConnections: number;
    /** During a stop, how long a kept-alive connection must be quiet before it is closed. */
    drainIdleGraceMs: number;
  };
  /**
   * How long one statement of an API request may run (0: no limit). PostgreSQL
   * cancels it; the embedded database's watchdog restarts it (decision 014).
   */
  statementTimeoutMs: number;
  /** Folder that holds the built site (`dist/client`). */
  siteDir: string;
  /** Folder with the product's SQL migrations and seed (`supabase/`). */
  supabaseDir: string;
}

export interface StorageConfig {
  backend: 'fs' | 's3';
  /** Where the filesystem store keeps blobs, and where every upload is staged. */
  dir: string;
  /** The largest object any bucket accepts, in bytes (a bucket may set less). */
  fileSizeLimit: number;
  /** Lifetime of a signed upload URL, in seconds. */
  uploadUrlExpiresSeconds: number;
  /**
   * Image transformations (`/render/image`): renders at once (each in its own
   * process), renders waiting for one of them, one render's time limit, renders
   * a minute per user or client network (cached results are free), and the
   * bytes of rendered results kept in memory (0: none).
   */
  render: {
    concurrency: number;
    queue: number;
    timeoutMs: number;
    perMinute: number;
    /** Renders one user or client network may have running or waiting at once. */
    perCaller: number;
    cacheBytes: number;
  };
  s3: {
    bucket: string | undefined;
    region: string;
    endpoint: string | undefined;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    forcePathStyle: boolean;
    prefix: string;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface ConfigContext {
  rootDir: string;
  isTty?: boolean;
}

export function loadConfig(
  env: Record<string, string | undefined>,
  context: ConfigContext,
): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || 'environment'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const values = parsed.data;
  const siteUrl = values.SITE_URL ?? `http://localhost:${values.PORT}`;
  const apiUrl = values.API_URL ?? siteUrl;
  const jwtIssuer = values.JWT_ISSUER ?? `${apiUrl}/auth/v1`;
  return {
    port: values.PORT,
    host: values.HOST,
    siteUrl,
    apiUrl,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    pgliteExtensions: values.PGLITE_EXTENSIONS,
    embeddedVacuumIntervalMs: values.EMBEDDED_VACUUM_INTERVAL_MS,
    jwt: {
      secret: values.JWT_SECRET,
      keys: values.JWT_KEYS,
      anonKey: values.ANON_KEY,
      serviceRoleKey: values.SERVICE_ROLE_KEY,
      expirySeconds: values.JWT_EXP,
      issuer: jwtIssuer,
    },
    scheduler: { url: values.SCHEDULER_URL, scriptUrl: values.SCHEDULER_SCRIPT_URL },
    auth: toAuthConfig(values, {
      siteUrl,
      apiUrl,
      jwtExpirySeconds: values.JWT_EXP,
      jwtIssuer,
    }),
    salesInbox: values.SALES_INBOX,
    storage: {
      backend: values.STORAGE_BACKEND,
      dir: path.join(path.resolve(values.DATA_DIR), 'storage'),
      fileSizeLimit: values.STORAGE_FILE_SIZE_LIMIT,
      uploadUrlExpiresSeconds: values.STORAGE_UPLOAD_URL_EXPIRES,
      render: {
        concurrency: values.STORAGE_RENDER_CONCURRENCY,
        queue: values.STORAGE_RENDER_QUEUE,
        timeoutMs: values.STORAGE_RENDER_TIMEOUT_MS,
        perMinute: values.STORAGE_RENDER_RATE_LIMIT,
        perCaller: values.STORAGE_RENDER_PER_CALLER,
        cacheBytes: values.STORAGE_RENDER_CACHE_SIZE,
      },
      s3: {
        bucket: values.STORAGE_S3_BUCKET,
        region: values.STORAGE_S3_REGION,
        endpoint: values.STORAGE_S3_ENDPOINT,
        accessKeyId: values.STORAGE_S3_ACCESS_KEY_ID,
        secretAccessKey: values.STORAGE_S3_SECRET_ACCESS_KEY,
        forcePathStyle:
          values.STORAGE_S3_FORCE_PATH_STYLE ?? values.STORAGE_S3_ENDPOINT !== undefined,
        prefix: values.STORAGE_S3_PREFIX,
      },
    },
    restSchemas: values.REST_SCHEMAS,
    realtime: {
      maxMessageBytes: values.REALTIME_MAX_MESSAGE_BYTES,
      maxChannelsPerSocket: values.REALTIME_MAX_CHANNELS_PER_SOCKET,
      joinsPerSecond: values.REALTIME_JOINS_PER_SECOND,
      messagesPerSecond: values.REALTIME_MESSAGES_PER_SECOND,
      maxBufferedBytes: values.REALTIME_MAX_BUFFERED_BYTES,
      idleTimeoutMs: values.REALTIME_IDLE_TIMEOUT_MS,
    },
    functions: functionsConfig(values, context.rootDir),
    seedSampleData: values.SEED_SAMPLE_DATA,
    trustProxy: values.TRUST_PROXY,
    log: {
      level: values.LOG_LEVEL,
      format: values.LOG_FORMAT ?? (context.isTty ? 'pretty' : 'json'),
    },
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    http: {
      headersTimeoutMs: values.HEADERS_TIMEOUT_MS,
      idleTimeoutMs: values.IDLE_TIMEOUT_MS,
      maxConnections: values.MAX_CONNECTIONS,
      drainIdleGraceMs: values.SHUTDOWN_IDLE_GRACE_MS,
    },
    statementTimeoutMs: values.STATEMENT_TIMEOUT_MS,
    siteDir: values.SITE_DIR
      ? path.resolve(values.SITE_DIR)
      : path.join(context.rootDir, 'dist', 'client'),
    supabaseDir: values.SUPABASE_DIR
      ? path.resolve(values.SUPABASE_DIR)
      : path.join(context.rootDir, 'supabase'),
  };
}

/**
 * A function's time when FUNCTIONS_TIMEOUT_MS is not set: 60 s, or less when
 * IDLE_TIMEOUT_MS is lower, leaving a tenth of it (at most 5 s) for the 504 to
 * be written before the connection would be closed as idle.
 */
export function defaultFunctionsTimeoutMs(idleTimeoutMs: number): number {
  return Math.min(60_000, idleTimeoutMs - Math.min(5_000, Math.floor(idleTimeoutMs / 10)));
}

/**
 * The functions folder: FUNCTIONS_DIR, else the sources (`supabase/functions`)
 * when the server runs from its TypeScript, or the build's bundles
 * (`dist/functions`, made by scripts/build-server.mjs) when it runs built.
 */
function functionsConfig(
  values: z.output<typeof environmentSchema>,
  rootDir: string,
): FunctionsConfig {
  const isBuilt = import.meta.url.endsWith('.mjs');
  const dir = values.FUNCTIONS_DIR
    ? path.resolve(values.FUNCTIONS_DIR)
    : path.join(rootDir, isBuilt ? 'dist' : 'supabase', 'functions');
  return {
    dir,
    configFile: path.join(path.dirname(dir), 'config.toml'),
    timeoutMs: values.FUNCTIONS_TIMEOUT_MS ?? defaultFunctionsTimeoutMs(values.IDLE_TIMEOUT_MS),
    maxBodyBytes: values.FUNCTIONS_MAX_BODY_BYTES,
  };
}
