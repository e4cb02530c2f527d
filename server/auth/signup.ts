import type { Context } from 'hono';
import { z } from 'zod';
import type { Transaction } from '../db/database';
import type { AuthDependencies } from './context';
import { createUser } from './create-user';
import { errors } from './errors';
import { createFlowState, readCodeChallenge } from './flow-state';
import { sendSignupConfirmation, sendSmsCode } from './messages';
import { phoneAllowed } from './sms';
import { checkPasswordStrength, hashPassword } from './passwords';
import { hitRateLimit, networkKey } from './rate-limits';
import { resolveRedirect } from './redirects';
import { clientIp, metadataObject, optionalString, readBody, userAgent } from './request';
import { recordAudit } from './audit';
import { startSession } from './sessions';
import { generateUuid } from './tokens';
import {
  findUserByEmail,
  findUserByPhone,
  isValidEmail,
  loadUserJson,
  normaliseEmail,
  normalisePhone,
  type UserRow,
} from './users';

const signupBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  data: metadataObject,
  channel: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

/** What GoTrue answers for a repeated sign-up when confirmation is on: a stranger's user. */
function obfuscatedUser(input: {
  email?: string;
  phone?: string;
  data?: Record<string, unknown>;
  aud: string;
}) {
  const now = new Date().toISOString();
  const provider = input.email ? 'email' : 'phone';
  return {
    id: generateUuid(),
    aud: input.aud,
    role: '',
    email: input.email ?? '',
    phone: input.phone ?? '',
    confirmation_sent_at: now,
    app_metadata: { provider, providers: [provider] },
    user_metadata: input.data ?? {},
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

/**
 * The per-network sign-in and sign-up limit, counted (and committed) before the
 * password is hashed: a caller over the limit costs no bcrypt work.
 */
async function limitSignUps(deps: AuthDependencies, ip: string): Promise<void> {
  await hitRateLimit(
    deps.db,
    networkKey('signin', ip),
    deps.config.rateLimits.signInSignUpPer5Minutes,
    300,
    errors.overRequestRateLimit,
  );
}

export async function signup(c: Context, deps: AuthDependencies): Promise<Response> {
  const { config } = deps;
  const body = await readBody(c, signupBody);
  const ip = clientIp(c, deps.trustProxy);
  const context = { ip, userAgent: userAgent(c) };
  if (config.disableSignup) throw errors.signupDisabled();

  if (!body.email && !body.phone) {
    if (!config.anonymousEnabled) throw errors.anonymousDisabled();
    return deps.db.transaction(async (tx) => {
      await hitRateLimit(
        tx,
        networkKey('anonymous', ip),
        config.rateLimits.anonymousUsersPerHour,
        3600,
        errors.overRequestRateLimit,
      );
      const user = await createUser(tx, {
        userMetadata: body.data,
        isAnonymous: true,
        role: config.defaultRole,
        aud: config.audience,
      });
      await recordAudit(tx, { id: user.id, username: '' }, 'user_signedup', ip, {
        provider: 'anonymous',
      });
      return c.json(await startSession(tx, deps, user, 'anonymous', context));
    });
  }

  if (body.email && body.phone) {
    throw errors.validation('Only an email address or phone number should be provided on signup.');
  }
  const challenge = readCodeChallenge(body);
  const redirectTo = resolveRedirect(config, c.req.query('redirect_to'));

  if (body.email) {
    if (!config.emailEnabled) throw errors.emailProviderDisabled();
    const email = normaliseEmail(body.email);
    if (!isValidEmail(email))
      throw errors.validation('Unable to validate email address: invalid format');
    if (!body.password) throw errors.validation('Signup requires a valid password');
    checkPasswordStrength(config.password, body.password);
    await limitSignUps(deps, ip);
    const encryptedPassword = await hashPassword(body.password);
    return deps.db.transaction(async (tx) => {
      const existing = await findUserByEmail(tx, email);
      if (existing && !existing.is_anonymous) {
        return repeatedSignup(
          c,
          tx,
          deps,
          existing,
          { ip, redirectTo },
          { email, data: body.data, encryptedPassword },
        );
      }
      const user = await createUser(tx, {
        email,
        encryptedPassword,
        userMetadata: body.data,
        emailConfirmed: config.mailerAutoconfirm,
        role: config.defaultRole,
        aud: config.audience,
      });
      await recordAudit(tx, { id: user.id, username: email }, 'user_signedup', ip, {
        provider: 'email',
      });
      if (config.mailerAutoconfirm)
        return c.json(await startSession(tx, deps, user, 'password', context));
      if (challenge) await createFlowState(tx, user.id, challenge, 'email/signup');
      await sendSignupConfirmation(tx, deps, { ip, redirectTo }, user, true);
      return c.json(await loadUserJson(tx, user.id));
    });
  }

  const phone = normalisePhone(body.phone!);
  if (!phoneAllowed(config, phone)) throw errors.phoneProviderDisabled();
  if (!phone) throw errors.validation('Invalid phone number format (E.164 required)');
  if (challenge) throw errors.validation('PKCE not supported for phone signups');
  if (!body.password) throw errors.validation('Signup requires a valid password');
  checkPasswordStrength(config.password, body.password);
  await limitSignUps(deps, ip);
  const encryptedPassword = await hashPassword(body.password);
  return deps.db.transaction(async (tx) => {
    const existing = await findUserByPhone(tx, phone);
    if (existing)
      return repeatedSignup(
        c,
        tx,
        deps,
        existing,
        { ip, redirectTo },
        { phone, data: body.data, encryptedPassword },
      );
    const user = await createUser(tx, {
      phone,
      encryptedPassword,
      userMetadata: body.data,
      phoneConfirmed: config.smsAutoconfirm,
      role: config.defaultRole,
      aud: config.audience,
    });
    await recordAudit(tx, { id: user.id, username: phone }, 'user_signedup', ip, {
      provider: 'phone',
    });
    if (config.smsAutoconfirm)
      return c.json(await startSession(tx, deps, user, 'password', context));
    await sendSmsCode(tx, deps, { ip }, user, 'confirmation', phone, true);
    return c.json(await loadUserJson(tx, user.id));
  });
}

/**
 * A sign-up for an address that already has an account. Confirmed: with
 * autoconfirm GoTrue says so; without, it answers as for a new account (no
 * enumeration). Unconfirmed: a new confirmation is sent, and the password
 * becomes this sign-up's, bound to that confirmation (GoTrue keeps the first
 * sign-up's password, so whoever signed up first with someone else's address
 * would hold the account once its owner confirms it).
 */
async function repeatedSignup(
  c: Context,
  tx: Transaction,
  deps: AuthDependencies,
  existing: UserRow,
  send: { ip: string; redirectTo: string },
  input: {
    email?: string;
    phone?: string;
    data?: Record<string, unknown>;
    encryptedPassword: string;
  },
): Promise<Response> {
  const isEmail = Boolean(input.email);
  const confirmed = isEmail ? existing.email_confirmed_at : existing.phone_confirmed_at;
  const autoconfirm = isEmail ? deps.config.mailerAutoconfirm : deps.config.smsAutoconfirm;
  await recordAudit(
    tx,
    { id: existing.id, username: input.email ?? input.phone ?? '' },
    'user_repeated_signup',
    send.ip,
  );
  if (confirmed || autoconfirm) {
    if (autoconfirm) throw errors.userAlreadyExists();
    const { email, phone, data } = input;
    return c.json(obfuscatedUser({ email, phone, data, aud: deps.config.audience }));
  }
  await tx.query(
    `update auth.users set encrypted_password = $2, updated_at = now() where id = $1`,
    [existing.id, input.encryptedPassword],
  );
  if (isEmail) await sendSignupConfirmation(tx, deps, send, existing, true);
  else await sendSmsCode(tx, deps, { ip: send.ip }, existing, 'confirmation', input.phone!, true);
  return c.json(await loadUserJson(tx, existing.id));
}
