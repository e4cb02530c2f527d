import type { Context } from 'hono';
import { z } from 'zod';
import type { AuthDependencies } from './context';
import { createUser } from './create-user';
import { errors } from './errors';
import { createFlowState, readCodeChallenge } from './flow-state';
import { sendMagicLink, sendSignupConfirmation, sendSmsCode } from './messages';
import { phoneAllowed } from './sms';
import { hitRateLimit, networkKey } from './rate-limits';
import { resolveRedirect } from './redirects';
import { clientIp, metadataObject, optionalString, readBody } from './request';
import {
  findUserByEmail,
  findUserByPhone,
  isValidEmail,
  normaliseEmail,
  normalisePhone,
} from './users';

const otpBody = z.object({
  email: optionalString,
  phone: optionalString,
  data: metadataObject,
  create_user: z.boolean().optional().default(true),
  channel: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

/** POST /otp: a magic link and code by email, or a code by SMS; may create the user. */
export async function otp(c: Context, deps: AuthDependencies): Promise<Response> {
  const { config } = deps;
  const body = await readBody(c, otpBody);
  const ip = clientIp(c, deps.trustProxy);
  if (body.email && body.phone)
    throw errors.validation('Only an email address or phone number should be provided');
  if (!body.email && !body.phone) throw errors.validation('One of email or phone must be set');
  if (body.email && body.channel)
    throw errors.validation('Channel should only be specified with Phone OTP');
  await hitRateLimit(
    deps.db,
    networkKey('otp', ip),
    config.rateLimits.otpPerHour,
    3600,
    errors.overRequestRateLimit,
  );
  const challenge = readCodeChallenge(body);
  const redirectTo = resolveRedirect(config, c.req.query('redirect_to'));

  if (body.email) {
    if (!config.emailEnabled) throw errors.emailProviderDisabled('Email logins are disabled');
    const email = normaliseEmail(body.email);
    if (!isValidEmail(email))
      throw errors.validation('Unable to validate email address: invalid format');
    return deps.db.transaction(async (tx) => {
      let user = await findUserByEmail(tx, email);
      if (!user) {
        if (!body.create_user || config.disableSignup) throw errors.otpDisabled();
        user = await createUser(tx, {
          email,
          userMetadata: body.data,
          role: config.defaultRole,
          aud: config.audience,
        });
        if (challenge) await createFlowState(tx, user.id, challenge, 'email/signup');
        await sendSignupConfirmation(tx, deps, { ip, redirectTo }, user, false);
        return c.json({});
      }
      if (challenge)
        await createFlowState(
          tx,
          user.id,
          challenge,
          user.email_confirmed_at ? 'magiclink' : 'email/signup',
        );
      if (user.email_confirmed_at) await sendMagicLink(tx, deps, { ip, redirectTo }, user);
      // No password was chosen with this code: confirming it clears any (see settleFirstConfirmation).
      else await sendSignupConfirmation(tx, deps, { ip, redirectTo }, user, false);
      return c.json({});
    });
  }

  const phone = normalisePhone(body.phone!);
  if (!phoneAllowed(config, phone))
    throw errors.phoneProviderDisabled('Unsupported phone provider');
  if (!phone) throw errors.validation('Invalid phone number format (E.164 required)');
  if (body.channel && body.channel !== 'sms' && body.channel !== 'whatsapp') {
    throw errors.validation('Invalid channel: only sms or whatsapp');
  }
  return deps.db.transaction(async (tx) => {
    let user = await findUserByPhone(tx, phone);
    if (!user) {
      if (!body.create_user || config.disableSignup) throw errors.otpDisabled();
      user = await createUser(tx, {
        phone,
        userMetadata: body.data,
        role: config.defaultRole,
        aud: config.audience,
      });
    }
    const messageId = await sendSmsCode(
      tx,
      deps,
      { ip },
      user,
      user.phone_confirmed_at ? 'otp' : 'confirmation',
      phone,
    );
    return c.json({ message_id: messageId });
  });
}
