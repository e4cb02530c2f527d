import type { Queryable } from '../db/database';
import type { Logger } from '../logger';

/**
 * PostgREST's in-database configuration (its `db-config`, on by default):
 * `alter role authenticator set pgrst.db_max_rows = '100'` and the like, read
 * from pg_db_role_setting as PostgREST's queryDbSettings reads them. A
 * database-specific setting (`alter role … in database … set`) wins over one
 * for all databases. PostgREST reads the role it connects as; our server
 * connects as the database owner, so it reads `authenticator` (Supabase's
 * role, migration 0011) and then the role it connects as, the latter winning
 * for a key both set (decision 038). Read with the schema cache, so again on
 * `NOTIFY pgrst, 'reload schema'` and `'reload config'`.
 */

export type TxEnd = 'commit' | 'commit-allow-override' | 'rollback' | 'rollback-allow-override';

export interface DbSettings {
  /** `pgrst.db_aggregates_enabled`: count(), sum()… in `select`. Default false. */
  aggregatesEnabled: boolean;
  /** `pgrst.db_plan_enabled`: `Accept: application/vnd.pgrst.plan` (explain()). Default false. */
  planEnabled: boolean;
  /** `pgrst.db_max_rows`: the most rows a read or a representation returns. Default none. */
  maxRows: number | undefined;
  /** `pgrst.db_tx_end`. Default `commit-allow-override` (ours: `Prefer: tx=rollback` is honoured). */
  txEnd: TxEnd;
  /** `pgrst.db_pre_request`: a function called before each request's statement. */
  preRequest: string | undefined;
}

export const DEFAULT_DB_SETTINGS: DbSettings = Object.freeze({
  aggregatesEnabled: false,
  planEnabled: false,
  maxRows: undefined,
  txEnd: 'commit-allow-override',
  preRequest: undefined,
});

/** The keys we honour; PostgREST's other keys (jwt_secret, db_schemas…) are ignored with a notice. */
const KNOWN = [
  'db_aggregates_enabled',
  'db_plan_enabled',
  'db_max_rows',
  'db_tx_end',
  'db_pre_request',
];
const MAX_VALUE_LENGTH = 1000;

/** PostgREST's coerceBool: any case of true/false (letters only), else an integer > 0. */
export function parseBool(value: string): boolean | undefined {
  const letters = value.replace(/[^A-Za-z]/g, '').toLowerCase();
  if (letters === 'true') return true;
  if (letters === 'false') return false;
  if (/^[+-]?\d{1,18}$/.test(value.trim())) return Number(value.trim()) > 0;
  return undefined;
}

function parseMaxRows(value: string): number | undefined {
  const text = value.trim();
  if (!/^\d{1,15}$/.test(text)) return undefined;
  const rows = Number(text);
  return rows > 0 ? rows : undefined;
}

function parseTxEnd(value: string): TxEnd | undefined {
  return (['commit', 'commit-allow-override', 'rollback', 'rollback-allow-override'] as const).find(
    (candidate) => candidate === value,
  );
}

/** A function name, optionally schema-qualified, as plain identifiers (it reaches SQL quoted). */
function parsePreRequest(value: string): string | undefined {
  return /^[A-Za-z_][\w$]{0,62}(\.[A-Za-z_][\w$]{0,62})?$/.test(value) ? value : undefined;
}

/** Turns `pgrst.*` key/values into settings; a bad or unknown one is skipped with a warning. */
export function parseDbSettings(
  entries: Iterable<readonly [string, string]>,
  logger?: Pick<Logger, 'warn'>,
): DbSettings {
  const settings: DbSettings = { ...DEFAULT_DB_SETTINGS };
  const invalid = (key: string, value: string) =>
    logger?.warn(
      { setting: `pgrst.${key}`, value: value.slice(0, 100) },
      'ignoring an invalid in-database PostgREST setting: using the default',
    );
  for (const [key, value] of entries) {
    if (!KNOWN.includes(key)) continue;
    if (value.length > MAX_VALUE_LENGTH) {
      invalid(key, value);
      continue;
    }
    switch (key) {
      case 'db_aggregates_enabled':
      case 'db_plan_enabled': {
        const flag = parseBool(value);
        if (flag === undefined) invalid(key, value);
        else if (key === 'db_aggregates_enabled') settings.aggregatesEnabled = flag;
        else settings.planEnabled = flag;
        break;
      }
      case 'db_max_rows': {
        const rows = parseMaxRows(value);
        if (rows === undefined) invalid(key, value);
        else settings.maxRows = rows;
        break;
      }
      case 'db_tx_end': {
        const txEnd = parseTxEnd(value);
        if (txEnd === undefined) invalid(key, value);
        else settings.txEnd = txEnd;
        break;
      }
      case 'db_pre_request': {
        const name = parsePreRequest(value);
        if (name === undefined) invalid(key, value);
        else settings.preRequest = name;
        break;
      }
    }
  }
  return settings;
}

/** Reads the settings (see above). Never throws for a bad value; a failed query does. */
export async function loadDbSettings(
  db: Queryable,
  logger?: Pick<Logger, 'warn'>,
): Promise<DbSettings> {
  const result = await db.query<{ key: string; value: string }>(
    `with role_setting as (
       select s.setdatabase as database, r.rolname = current_user as is_current, unnest(s.setconfig) as setting
       from pg_catalog.pg_db_role_setting s join pg_catalog.pg_roles r on r.oid = s.setrole
       where r.rolname in ('authenticator', current_user)
         and s.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_catalog))
     )
     select distinct on (key) replace(substr(setting, 1, strpos(setting, '=') - 1), 'pgrst.', '') as key,
            substr(setting, strpos(setting, '=') + 1) as value
     from role_setting
     where setting like 'pgrst.%=%'
     order by key, is_current desc, database desc`,
  );
  const unknown = result.rows
    .map((row) => row.key)
    .filter((key) => !KNOWN.includes(key))
    .slice(0, 20);
  if (unknown.length > 0) {
    logger?.warn(
      { settings: unknown.map((key) => `pgrst.${key}`) },
      'ignoring in-database PostgREST settings this server does not use',
    );
  }
  return parseDbSettings(
    result.rows.map((row) => [row.key, row.value] as const),
    logger,
  );
}
