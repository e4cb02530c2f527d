import type { Database, Transaction } from '../db/database';
import type { ChannelAuth } from './types';

/**
 * Private channels (contract §5.3): what a caller may do on a topic is decided
 * by the row-level security policies on `realtime.messages`, as on Supabase.
 * Probe rows are inserted and selected back as the caller (read), then inserted
 * as the caller (write), with `realtime.topic()` naming the channel, in one
 * transaction that is always rolled back.
 */

export interface ChannelPolicies {
  broadcast: { read: boolean; write: boolean };
  presence: { read: boolean; write: boolean };
}

export const ALL_ALLOWED: ChannelPolicies = {
  broadcast: { read: true, write: true },
  presence: { read: true, write: true },
};

class Rollback extends Error {
  constructor(readonly policies: ChannelPolicies) {
    super('rollback');
  }
}

async function canInsert(tx: Transaction, topic: string, extension: string): Promise<boolean> {
  await tx.query('savepoint realtime_write_probe');
  try {
    await tx.query(
      `insert into realtime.messages (topic, extension, private) values ($1, $2, true)`,
      [topic, extension],
    );
    await tx.query('release savepoint realtime_write_probe');
    return true;
  } catch (error) {
    await tx.query('rollback to savepoint realtime_write_probe');
    const code = (error as { code?: unknown }).code;
    if (code === '42501') return false; // insufficient privilege / row-level security
    throw error;
  }
}

export async function channelPolicies(
  db: Database,
  auth: ChannelAuth,
  topic: string,
  options: { write?: boolean } = {},
): Promise<ChannelPolicies> {
  if (auth.role === 'service_role') return ALL_ALLOWED;
  const claims = JSON.stringify({ ...auth.claims, role: auth.role });
  const sub = typeof auth.claims.sub === 'string' ? auth.claims.sub : '';
  try {
    await db.transaction(async (tx) => {
      await tx.query(
        `insert into realtime.messages (topic, extension, private)
         values ($1, 'broadcast', true), ($1, 'presence', true)`,
        [topic],
      );
      await tx.query(
        `select set_config('role', $1, true),
                set_config('request.jwt.claims', $2, true),
                set_config('request.jwt.claim.sub', $3, true),
                set_config('request.jwt.claim.role', $1, true),
                set_config('realtime.topic', $4, true),
                set_config('statement_timeout', '5000', true)`,
        [auth.role, claims, sub, topic],
      );
      const { rows } = await tx.query<{ extension: string }>(
        `select distinct extension from realtime.messages
         where topic = $1 and extension in ('broadcast', 'presence')`,
        [topic],
      );
      const readable = new Set(rows.map((row) => row.extension));
      const policies: ChannelPolicies = {
        broadcast: { read: readable.has('broadcast'), write: false },
        presence: { read: readable.has('presence'), write: false },
      };
      if (options.write !== false) {
        policies.broadcast.write = await canInsert(tx, topic, 'broadcast');
        policies.presence.write = await canInsert(tx, topic, 'presence');
      }
      throw new Rollback(policies);
    });
  } catch (error) {
    if (error instanceof Rollback) return error.policies;
    throw error;
  }
  throw new Error('unreachable');
}
