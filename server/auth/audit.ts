import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';

/** GoTrue's audit actions and the log type each is filed under. */
const LOG_TYPES = {
  login: 'account',
  logout: 'account',
  invite_accepted: 'account',
  user_signedup: 'team',
  user_invited: 'team',
  user_deleted: 'team',
  token_revoked: 'token',
  token_refreshed: 'token',
  user_modified: 'user',
  user_recovery_requested: 'user',
  user_reauthenticate_requested: 'user',
  user_confirmation_requested: 'user',
  user_repeated_signup: 'user',
  user_updated_password: 'user',
  identity_linked: 'user',
  identity_unlinked: 'user',
  factor_in_progress: 'factor',
  factor_unenrolled: 'factor',
  challenge_created: 'factor',
  verification_attempted: 'factor',
  factor_deleted: 'factor',
  factor_updated: 'factor',
  passkey_created: 'user',
  passkey_updated: 'user',
  passkey_deleted: 'user',
} as const;

export type AuditAction = keyof typeof LOG_TYPES;

export interface AuditActor {
  id: string;
  username: string;
}

/** One row in auth.audit_log_entries, in GoTrue's payload shape. */
export async function recordAudit(
  db: Queryable,
  actor: AuditActor,
  action: AuditAction,
  ip: string,
  traits: Record<string, unknown> = {},
): Promise<void> {
  const logType = LOG_TYPES[action];
  await db.query(
    `insert into auth.audit_log_entries (id, payload, created_at, ip_address) values ($1, $2, now(), $3)`,
    [
      randomUUID(),
      JSON.stringify({
        actor_id: actor.id,
        actor_username: actor.username,
        action,
        log_type: logType,
        traits,
      }),
      ip.slice(0, 64),
    ],
  );
}
