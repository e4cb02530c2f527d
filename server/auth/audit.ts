import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';

export type AuditAction =
  | 'login'
  | 'logout'
  | 'user_signedup'
  | 'user_confirmation_requested'
  | 'user_recovery_requested'
  | 'user_reauthenticate_requested'
  | 'user_updated_password'
  | 'user_modified'
  | 'token_refreshed'
  | 'token_revoked'
  | 'user_invited'
  | 'user_deleted'
  | 'user_repeated_signup'
  | 'factor_in_progress'
  | 'factor_unenrolled'
  | 'mfa_code_login'
  | 'verification_attempted';

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
  const logType = action.startsWith('token')
    ? 'token'
    : action.startsWith('user') || action === 'login' || action === 'logout'
      ? action === 'login' || action === 'logout'
        ? 'account'
        : 'user'
      : 'factor';
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
