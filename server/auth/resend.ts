import type { Context } from 'hono';
import { z } from 'zod';
import type { AuthDependencies } from './context';
import { errors } from './errors';
import { createFlowState, readCodeChallenge } from './flow-state';
import { sendEmailChange, sendSignupConfirmation, sendSmsCode } from './messages';
import { confirmationBindsPassword } from './one-time-tokens';
import { assertSmsProvider, phoneAllowed } from './sms';
import { resolveRedirect } from './redirects';
import { clientIp, optionalString, readBody } from './request';
import {
  findUserByEmail,
  findUserById,
  findUserByPhone,
  normaliseEmail,
  normalisePhone,
} from './users';

const resendBody = z.object({
  email: optionalString,
  phone: optionalString,
  type: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

const RESEND_TYPES = ['signup', 'email_change', 'sms', 'phone_change'];

/** POST /resend: the last confirmation again. Unknown addresses get the same 200. */
export async function resend(c: Context, deps: AuthDependencies): Promise<Response> {
  const body = await readBody(c, resendBody);
  if (!body.type || !RESEND_TYPES.includes(body.type)) {
    throw errors.validation('Missing one of these types: signup, email_change, sms, phone_change');
  }
  if (!body.email && !body.phone) throw errors.validation('Missing email address or phone number');
  const isEmailType = body.type === 'signup' || body.type === 'email_change';
  if (isEmailType && !body.email)
    throw errors.validation('Type provided requires an email address');
  if (!isEmailType && !body.phone) throw errors.validation('Type provided requires a phone number');
  // Known numbers and unknown ones get the same answer without a provider.
  if (!isEmailType && !phoneAllowed(deps.config, normalisePhone(body.phone!))) {
    assertSmsProvider(deps);
  }
  const challenge = readCodeChallenge(body);
  const ip = clientIp(c, deps.trustProxy);
  const redirectTo = resolveRedirect(deps.config, c.req.query('redirect_to'));

  const messageId = await deps.db.transaction(async (tx): Promise<string | undefined> => {
    if (isEmailType) {
      const email = normaliseEmail(body.email!);
      if (body.type === 'signup') {
        const user = await findUserByEmail(tx, email);
        if (!user || user.email_confirmed_at) return undefined;
        if (challenge) await createFlowState(tx, user.id, challenge, 'email/signup');
        const binds = await confirmationBindsPassword(tx, user.id);
        await sendSignupConfirmation(tx, deps, { ip, redirectTo }, user, binds);
        return undefined;
      }
      const { rows } = await tx.query<{ id: string }>(
        `select id from auth.users where lower(email_change) = $1 and deleted_at is null limit 1`,
        [email],
      );
      const user = rows[0] ? await findUserById(tx, rows[0].id) : null;
      if (user?.email_change)
        await sendEmailChange(tx, deps, { ip, redirectTo }, user, user.email_change);
      return undefined;
    }
    const phone = normalisePhone(body.phone!);
    if (!phone) throw errors.validation('Invalid phone number format (E.164 required)');
    if (body.type === 'sms') {
      const user = await findUserByPhone(tx, phone);
      if (!user || user.phone_confirmed_at) return undefined;
      const binds = await confirmationBindsPassword(tx, user.id);
      return sendSmsCode(tx, deps, { ip }, user, 'confirmation', phone, binds);
    }
    const { rows } = await tx.query<{ id: string }>(
      `select id from auth.users where phone_change = $1 and deleted_at is null limit 1`,
      [phone],
    );
    const user = rows[0] ? await findUserById(tx, rows[0].id) : null;
    if (!user) return undefined;
    return sendSmsCode(tx, deps, { ip }, user, 'phone_change', phone);
  });
  return c.json(messageId ? { message_id: messageId } : {});
}
