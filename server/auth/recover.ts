import type { Context } from 'hono';
import { z } from 'zod';
import type { AuthDependencies } from './context';
import { errors } from './errors';
import { createFlowState, readCodeChallenge } from './flow-state';
import { sendRecovery } from './messages';
import { resolveRedirect } from './redirects';
import { clientIp, optionalString, readBody } from './request';
import { recordAudit } from './audit';
import { findUserByEmail, isValidEmail, normaliseEmail } from './users';

const recoverBody = z.object({
  email: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

/** POST /recover: a reset link if the account exists; the same 200 {} either way. */
export async function recover(c: Context, deps: AuthDependencies): Promise<Response> {
  const body = await readBody(c, recoverBody);
  if (!body.email) throw errors.validation('Password recovery requires an email');
  if (!deps.config.emailEnabled) throw errors.emailProviderDisabled('Email logins are disabled');
  const email = normaliseEmail(body.email);
  if (!isValidEmail(email))
    throw errors.validation('Unable to validate email address: invalid format');
  const challenge = readCodeChallenge(body);
  const ip = clientIp(c, deps.trustProxy);
  const redirectTo = resolveRedirect(deps.config, c.req.query('redirect_to'));
  await deps.db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email);
    if (!user) return;
    if (challenge) await createFlowState(tx, user.id, challenge, 'recovery');
    await sendRecovery(tx, deps, { ip, redirectTo }, user);
    await recordAudit(tx, { id: user.id, username: email }, 'user_recovery_requested', ip);
  });
  return c.json({});
}
