import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { z } from 'zod';
import { recordAudit } from './audit';
import type { AuthDependencies } from './context';
import { AuthError, errors } from './errors';
import { sendInvite, verifyLink } from './messages';
import { issueOneTimeToken, type OneTimeTokenType } from './one-time-tokens';
import { checkPasswordStrength, hashPassword } from './passwords';
import { resolveRedirect } from './redirects';
import { clientIp, metadataObject, optionalString, readBody } from './request';
import { requireAdmin } from './request-auth';
import {
  adminActor,
  createAdminUser,
  emailTaken,
  findUserInAudience,
  requestAudience,
  validateEmailParam,
} from './admin-shared';
import { loadUserJson, mergeMetadata, type UserRow } from './users';

/** GoTrue's invite and generate_link. */
const inviteBody = z.object({ email: optionalString, data: metadataObject });

/** POST /invite[?redirect_to=]: creates the user if needed and mails the invitation. */
export async function adminInvite(c: Context, deps: AuthDependencies): Promise<Response> {
  const claims = await requireAdmin(c, deps);
  const body = await readBody(c, inviteBody);
  const email = validateEmailParam(body.email);
  const aud = requestAudience(c, deps);
  const ip = clientIp(c, deps.trustProxy);
  const redirectTo = resolveRedirect(deps.config, c.req.query('redirect_to'));
  const userId = await deps.db.transaction(async (tx) => {
    let user = await findUserInAudience(tx, email, aud);
    if (user?.email_confirmed_at) throw errors.emailExists();
    user ??= await createAdminUser(tx, {
      email,
      userMetadata: body.data,
      role: deps.config.defaultRole,
      aud,
    });
    await recordAudit(tx, adminActor(claims), 'user_invited', ip, {
      user_id: user.id,
      user_email: email,
    });
    await sendInvite(tx, deps, { ip, redirectTo }, user);
    await tx.query(`update auth.users set invited_at = now() where id = $1`, [user.id]);
    return user.id;
  });
  return c.json(await loadUserJson(deps.db, userId));
}

const linkBody = z.object({
  type: optionalString,
  email: optionalString,
  new_email: optionalString,
  password: optionalString,
  data: metadataObject,
  redirect_to: optionalString,
});

interface LinkPlan {
  user: UserRow;
  tokenType: OneTimeTokenType;
  relatesTo: string;
}

/**
 * POST /admin/generate_link: the link (and code) a mail would carry, without
 * sending it. Like GoTrue, a magic link for an unknown address signs it up.
 */
export async function adminGenerateLink(c: Context, deps: AuthDependencies): Promise<Response> {
  const claims = await requireAdmin(c, deps);
  const body = await readBody(c, linkBody);
  const { config } = deps;
  const email = validateEmailParam(body.email);
  const ip = clientIp(c, deps.trustProxy);
  const fromQuery = resolveRedirect(config, c.req.query('redirect_to'));
  const fromBody = body.redirect_to ? resolveRedirect(config, body.redirect_to) : undefined;
  const redirectTo =
    fromBody && (fromBody !== config.siteUrl || body.redirect_to === config.siteUrl)
      ? fromBody
      : fromQuery;
  const aud = requestAudience(c, deps);
  const existing = await findUserInAudience(deps.db, email, aud);
  let type = body.type ?? '';
  let password = body.password ?? '';
  if (!existing) {
    if (type === 'magiclink') {
      type = 'signup';
      password = randomBytes(48).toString('base64url');
    } else if (['recovery', 'email_change_current', 'email_change_new'].includes(type)) {
      throw new AuthError(404, 'user_not_found', 'User with this email not found');
    } else if (type === 'signup') {
      if (!password) throw errors.validation('Signup requires a valid password');
      checkPasswordStrength(config.password, password);
    }
  }
  const encryptedPassword =
    !existing && type === 'signup' ? await hashPassword(password) : undefined;
  const actor = adminActor(claims);

  const { plan, token } = await deps.db.transaction(async (tx) => {
    const newUser = (userMetadata = body.data) =>
      createAdminUser(tx, {
        email,
        encryptedPassword,
        userMetadata,
        role: config.defaultRole,
        aud,
      });
    const touch = (user: UserRow, columns: string) =>
      tx.query(`update auth.users set ${columns}, updated_at = now() where id = $1`, [user.id]);
    let plan: LinkPlan;
    switch (type) {
      case 'magiclink':
      case 'recovery': {
        const user = existing!;
        await recordAudit(tx, actor, 'user_recovery_requested', ip, { user_id: user.id });
        await touch(user, 'recovery_sent_at = now()');
        plan = { user, tokenType: 'recovery_token', relatesTo: email };
        break;
      }
      case 'invite': {
        if (existing?.email_confirmed_at) throw errors.emailExists();
        const user = existing ?? (await newUser());
        await recordAudit(tx, actor, 'user_invited', ip, { user_id: user.id, user_email: email });
        await touch(user, 'confirmation_sent_at = now(), invited_at = now()');
        plan = { user, tokenType: 'confirmation_token', relatesTo: email };
        break;
      }
      case 'signup': {
        if (existing?.email_confirmed_at) throw errors.emailExists();
        if (existing && body.data) {
          await tx.query(`update auth.users set raw_user_meta_data = $2 where id = $1`, [
            existing.id,
            JSON.stringify(mergeMetadata(existing.raw_user_meta_data, body.data)),
          ]);
        }
        const user = existing ?? (await newUser());
        await recordAudit(
          tx,
          actor,
          existing ? 'user_confirmation_requested' : 'user_signedup',
          ip,
          { user_id: user.id, user_email: email, provider: 'email' },
        );
        await touch(user, 'confirmation_sent_at = now()');
        plan = { user, tokenType: 'confirmation_token', relatesTo: email };
        break;
      }
      case 'email_change_current':
      case 'email_change_new': {
        const user = existing!;
        if (!config.secureEmailChange && type === 'email_change_current') {
          throw errors.validation('Enable secure email change to generate link for current email');
        }
        const newEmail = validateEmailParam(body.new_email);
        if (await emailTaken(tx, newEmail, user.aud ?? aud, user.id)) throw errors.emailExists();
        await tx.query(
          `update auth.users set email_change = $2, email_change_sent_at = now(),
             email_change_confirm_status = 0, updated_at = now() where id = $1`,
          [user.id, newEmail],
        );
        await recordAudit(tx, actor, 'user_modified', ip, {
          user_id: user.id,
          new_email: newEmail,
        });
        plan =
          type === 'email_change_current'
            ? { user, tokenType: 'email_change_token_current', relatesTo: email }
            : { user, tokenType: 'email_change_token_new', relatesTo: newEmail };
        break;
      }
      default:
        throw errors.validation(`Invalid email action link type requested: ${type}`);
    }
    // A sign-up link for a user the admin just created with a password keeps it.
    const token = await issueOneTimeToken(
      tx,
      plan.user.id,
      plan.tokenType,
      plan.relatesTo,
      config.otpLength,
      { bindsPassword: type === 'signup' && encryptedPassword !== undefined },
    );
    return { plan, token };
  });

  const linkType = type.startsWith('email_change') ? 'email_change' : type;
  return c.json({
    ...(await loadUserJson(deps.db, plan.user.id)),
    action_link: verifyLink(deps, token.hash, linkType, redirectTo),
    email_otp: token.otp,
    hashed_token: token.hash,
    verification_type: type,
    redirect_to: redirectTo,
  });
}
