import type { Context, Hono } from 'hono';
import { DatabaseError, type Queryable } from '../db/database';
import { recordAudit } from './audit';
import { updateProviders } from './create-user';
import type { AuthDependencies, HandleAuth } from './context';
import { AuthError, errors } from './errors';
import { clientIp, isUuid } from './request';
import { authenticate } from './request-auth';
import type { IdentityRow, UserRow } from './users';

/**
 * Manual identity linking (GoTrue's internal/api/identity.go), behind
 * SECURITY_MANUAL_LINKING_ENABLED. No OAuth provider is configured, so linking
 * can only fail; unlinking works for any identity but the last.
 */

/** The OAuth providers GoTrue knows; all of them are disabled here. */
const KNOWN_PROVIDERS = new Set([
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'kakao',
  'keycloak',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'snapchat',
  'spotify',
  'slack',
  'slack_oidc',
  'twitch',
  'twitter',
  'x',
  'vercel_marketplace',
  'workos',
  'zoom',
]);

/** GoTrue's audit action for an unlink, which audit.ts does not name yet. */

export function registerIdentityRoutes(routes: Hono, handle: HandleAuth): void {
  routes.get('/user/identities/authorize', handle(linkIdentity));
  routes.delete('/user/identities/:identityId', handle(unlinkIdentity));
}

/** requireAuthentication, then requireManualLinkingEnabled (GoTrue's order). */
async function authenticateForLinking(c: Context, deps: AuthDependencies) {
  const auth = await authenticate(c, deps);
  if (!deps.config.manualLinkingEnabled) throw errors.manualLinkingDisabled();
  return auth;
}

/** GET /user/identities/authorize?provider=…: the provider's authorization URL. */
async function linkIdentity(c: Context, deps: AuthDependencies): Promise<Response> {
  await authenticateForLinking(c, deps);
  throw unsupportedProvider(c.req.query('provider') ?? '');
}

/** GoTrue's answer when asked to redirect to an OAuth provider, none being configured. */
export function unsupportedProvider(name: string): AuthError {
  const provider = name.toLowerCase();
  const reason = provider.startsWith('custom:')
    ? 'custom OAuth providers are disabled'
    : KNOWN_PROVIDERS.has(provider)
      ? 'provider is not enabled'
      : `Provider ${provider} could not be found`;
  return errors.validation(`Unsupported provider: ${reason}`);
}

/** DELETE /user/identities/:identityId */
async function unlinkIdentity(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user, claims } = await authenticateForLinking(c, deps);
  const identityId = c.req.param('identityId') ?? '';
  if (!isUuid(identityId)) {
    throw new AuthError(404, 'validation_failed', 'identity_id must be an UUID');
  }
  const audience = c.req.header('x-jwt-aud') || deps.config.audience;
  const tokenAudience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
  if (!tokenAudience || tokenAudience !== audience) {
    throw new AuthError(
      403,
      'unexpected_audience',
      "Token audience doesn't match request audience",
    );
  }
  const ip = clientIp(c, deps.trustProxy);

  await deps.db.transaction(async (tx) => {
    // Locked, so two concurrent unlinks cannot remove the last two identities.
    await tx.query(`select 1 from auth.users where id = $1 for update`, [user.id]);
    const identities = await findIdentities(tx, user.id);
    if (identities.length <= 1) {
      throw new AuthError(
        422,
        'single_identity_not_deletable',
        'User must have at least 1 identity after unlinking',
      );
    }
    const target = identities.find((identity) => identity.id === identityId.toLowerCase());
    if (!target) throw new AuthError(422, 'identity_not_found', "Identity doesn't exist");

    await recordAudit(
      tx,
      { id: user.id, username: user.email || user.phone || '' },
      'identity_unlinked',
      ip,
      { identity_id: target.id, provider: target.provider, provider_id: target.provider_id },
    );
    await tx.query(`delete from auth.identities where id = $1`, [target.id]);
    if (target.provider === 'phone') {
      await tx.query(
        `update auth.users set phone = null, phone_confirmed_at = null, updated_at = now() where id = $1`,
        [user.id],
      );
    } else {
      await updateEmailFromIdentities(
        tx,
        user,
        identities.filter((identity) => identity.id !== target.id),
        deps.config.mailerAutoconfirm,
      );
    }
    await updateProviders(tx, user.id);
  });
  return c.json({});
}

async function findIdentities(db: Queryable, userId: string): Promise<IdentityRow[]> {
  const { rows } = await db.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
     from auth.identities where user_id = $1 order by created_at, id`,
    [userId],
  );
  return rows;
}

/**
 * GoTrue's User.UpdateUserEmailFromIdentities: when no remaining identity has
 * the user's email, the email moves to the best remaining identity (verified
 * emails first, then unverified, then none) whose address no other user has.
 */
async function updateEmailFromIdentities(
  tx: Queryable,
  user: UserRow,
  remaining: IdentityRow[],
  mailerAutoconfirm: boolean,
): Promise<void> {
  const currentEmail = user.email ?? '';
  if (remaining.some((identity) => (identity.email ?? '') === currentEmail)) return;

  const rank = (identity: IdentityRow) =>
    !identity.email ? 2 : identity.identity_data?.email_verified === true ? 0 : 1;
  // `remaining` is in creation order; the sort is stable.
  const candidates = [...remaining].sort((a, b) => rank(a) - rank(b));
  let primary: IdentityRow | undefined;
  for (const identity of candidates) {
    const email = identity.email ?? '';
    const { rows } = email
      ? await tx.query(
          `select 1 from auth.users
           where lower(email) = lower($1) and aud = $2 and is_sso_user = false and id <> $3 limit 1`,
          [email, user.aud ?? '', user.id],
        )
      : { rows: [] };
    if (rows.length === 0) {
      primary = identity;
      break;
    }
  }
  if (!primary) {
    throw new AuthError(
      422,
      'email_conflict_identity_not_deletable',
      'Unable to unlink identity due to email conflict',
    );
  }
  const email = primary.email ?? '';
  const keepsConfirmation =
    email !== '' && (primary.identity_data?.email_verified === true || mailerAutoconfirm);
  // Pending tokens and changes were issued for the old address: none of them stay valid.
  await tx
    .query(
      `update auth.users set email = $2,
       confirmation_token = '', confirmation_sent_at = null, recovery_token = '', recovery_sent_at = null,
       email_change = '', email_change_token_current = '', email_change_token_new = '',
       email_change_sent_at = null, email_change_confirm_status = 0,
       phone_change = '', phone_change_token = '', phone_change_sent_at = null,
       reauthentication_token = '', reauthentication_sent_at = null,
       email_confirmed_at = case when $3 then email_confirmed_at end,
       raw_user_meta_data = case when $3 then raw_user_meta_data
         else coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": false}'::jsonb end,
       updated_at = now()
     where id = $1`,
      [user.id, email || null, keepsConfirmation],
    )
    .catch((error: unknown) => {
      // Another user took the address meanwhile.
      if (error instanceof DatabaseError && error.code === '23505') {
        throw new AuthError(
          422,
          'email_conflict_identity_not_deletable',
          'Unable to unlink identity due to email conflict',
        );
      }
      throw error;
    });
  await tx.query(`delete from auth.one_time_tokens where user_id = $1`, [user.id]);
}
