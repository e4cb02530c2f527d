import type { Context } from 'hono';
import { recordAudit } from './audit';
import type { AuthDependencies } from './context';
import { AuthError, errors } from './errors';
import { sendReauthentication } from './messages';
import { clientIp } from './request';
import { authenticate } from './request-auth';

/** GET /reauthenticate: a nonce by email or SMS, for a later password change. */
export async function reauthenticate(c: Context, deps: AuthDependencies): Promise<Response> {
  const { user } = await authenticate(c, deps);
  if (!user.email && !user.phone) {
    throw errors.validation(
      'Reauthentication requires the user to have an email or a phone number',
    );
  }
  if (user.email && !user.email_confirmed_at) {
    throw new AuthError(422, 'email_not_confirmed', 'Please verify your email first.');
  }
  if (!user.email && user.phone && !user.phone_confirmed_at) {
    throw new AuthError(422, 'phone_not_confirmed', 'Please verify your phone first.');
  }
  const ip = clientIp(c, deps.trustProxy);
  await deps.db.transaction(async (tx) => {
    await sendReauthentication(tx, deps, { ip, redirectTo: deps.config.siteUrl }, user);
    await recordAudit(
      tx,
      { id: user.id, username: user.email ?? user.phone ?? '' },
      'user_reauthenticate_requested',
      ip,
    );
  });
  return c.json({});
}
