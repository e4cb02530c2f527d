import { DatabaseError, type Database } from '../db/database';
import { withRequestContext, type ApiRole } from '../db/request-context';
import type { ActorName, Operation, Values } from './access-matrix';

/**
 * Runs an access-matrix operation as an actor, the way the data API will: one
 * transaction as the actor's role with their JWT claims (contract §6.3), reads
 * read-only. The transaction is always rolled back, so every case starts from
 * the same world; a REST driver would send `Prefer: tx=rollback`.
 */

export type Outcome =
  | { ok: true; rows: Record<string, unknown>[]; count: number }
  | { ok: false; code: string; message: string };

export interface Identity {
  role: ApiRole;
  claims: Record<string, unknown>;
}

export interface AccessDriver {
  run(actor: ActorName, operation: Operation): Promise<Outcome>;
}

class RollBack extends Error {
  constructor(readonly outcome: Outcome) {
    super('rolled back on purpose');
  }
}

function identifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return `"${name}"`;
}

interface Statement {
  sql: string;
  params: unknown[];
  method: string;
  path: string;
}

function toStatement(operation: Operation, resolve: (value: string | null) => unknown): Statement {
  const params: unknown[] = [];
  const bind = (value: string | null) => {
    params.push(resolve(value));
    return `$${params.length}`;
  };
  const where = (match: Values = {}) => {
    const conditions = Object.entries(match).map(([k, v]) => `${identifier(k)} = ${bind(v)}`);
    return conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
  };
  switch (operation.kind) {
    case 'select': {
      const sql = `select * from public.${identifier(operation.table)}${where(operation.match)}`;
      return { sql, params, method: 'GET', path: `/rest/v1/${operation.table}` };
    }
    case 'insert': {
      const columns = Object.keys(operation.values).map(identifier).join(', ');
      const values = Object.values(operation.values).map(bind).join(', ');
      const sql = `insert into public.${identifier(operation.table)} (${columns}) values (${values})`;
      return { sql, params, method: 'POST', path: `/rest/v1/${operation.table}` };
    }
    case 'update': {
      const assignments = Object.entries(operation.values)
        .map(([column, value]) => `${identifier(column)} = ${bind(value)}`)
        .join(', ');
      const sql = `update public.${identifier(operation.table)} set ${assignments}${where(operation.match)}`;
      return { sql, params, method: 'PATCH', path: `/rest/v1/${operation.table}` };
    }
    case 'delete': {
      const sql = `delete from public.${identifier(operation.table)}${where(operation.match)}`;
      return { sql, params, method: 'DELETE', path: `/rest/v1/${operation.table}` };
    }
    case 'rpc': {
      const args = Object.entries(operation.args ?? {})
        .map(([name, value]) => `${identifier(name)} => ${bind(value)}`)
        .join(', ');
      const sql = `select public.${identifier(operation.fn)}(${args}) as result`;
      return { sql, params, method: 'POST', path: `/rest/v1/rpc/${operation.fn}` };
    }
  }
}

export function createSqlAccessDriver(
  db: Database,
  identities: Record<ActorName, Identity>,
  resolve: (value: string | null) => unknown,
): AccessDriver {
  return {
    async run(actor, operation) {
      const statement = toStatement(operation, resolve);
      const { role, claims } = identities[actor];
      try {
        await withRequestContext(
          db,
          {
            role,
            claims,
            method: statement.method,
            path: statement.path,
            headers: {},
            readOnly: statement.method === 'GET',
          },
          async (tx) => {
            const result = await tx.query(statement.sql, statement.params);
            throw new RollBack({ ok: true, rows: result.rows, count: result.rowCount });
          },
        );
        throw new Error('the transaction was meant to roll back');
      } catch (error) {
        if (error instanceof RollBack) return error.outcome;
        if (error instanceof DatabaseError) {
          return { ok: false, code: error.code, message: error.message };
        }
        throw error;
      }
    },
  };
}
