import type { Queryable } from '../db/database';
import { authEmails, authSms } from '../mail/auth-templates';
import { queueEmail } from '../mail/outbox';
import type { AuthDependencies } from './context';
import { errors } from './errors';
import { issueOneTimeToken, type OneTimeTokenType } from './one-time-tokens';
import { hitRateLimit, networkKey } from './rate-limits';
import { sendSms } from './sms';
import { epochSeconds } from './time';
import type { UserRow } from './users';

/**
 * The messages the auth flows send. Each checks the per-IP limit and the
 * per-user frequency, stores a fresh one-time code (its hash), and queues the
 * message in the caller's transaction.
 */

export interface SendContext {
  ip: string;
  /** Where the link sends the visitor after verification (already allow-listed). */
  redirectTo: string;
}

type SentColumn =
  | 'confirmation_sent_at'
  | 'recovery_sent_at'
  | 'email_change_sent_at'
  | 'phone_change_sent_at'
  | 'reauthentication_sent_at';

function assertNotTooSoon(deps: AuthDependencies, sentAt: string | null, sms = false): void {
  if (!sentAt || deps.config.mailerMaxFrequencySeconds === 0) return;
  const secondsLeft =
    epochSeconds(sentAt) + deps.config.mailerMaxFrequencySeconds - Math.floor(Date.now() / 1000);
  if (secondsLeft > 0)
    throw sms ? errors.smsTooSoon(secondsLeft) : errors.emailTooSoon(secondsLeft);
}

async function countEmail(db: Queryable, deps: AuthDependencies, ip: string): Promise<void> {
  await hitRateLimit(
    db,
    networkKey('email', ip),
    deps.config.rateLimits.emailSentPerHour,
    3600,
    errors.overEmailSendRateLimit,
  );
}

async function markSent(db: Queryable, userId: string, column: SentColumn): Promise<void> {
  await db.query(`update auth.users set ${column} = now(), updated_at = now() where id = $1`, [
    userId,
  ]);
}

export function verifyLink(
  deps: AuthDependencies,
  hash: string,
  type: string,
  redirectTo: string,
): string {
  const url = new URL(`${deps.config.apiUrl}/auth/v1/verify`);
  url.searchParams.set('token', hash);
  url.searchParams.set('type', type);
  url.searchParams.set('redirect_to', redirectTo);
  return url.toString();
}

async function sendEmailToken(
  db: Queryable,
  deps: AuthDependencies,
  context: SendContext,
  user: UserRow,
  options: {
    tokenType: OneTimeTokenType;
    sentColumn: SentColumn;
    sentAt: string | null;
    linkType: string;
    template: string;
    to: string;
    render: (link: string, code: string) => { subject: string; text: string; html: string };
    bindsPassword?: boolean;
  },
): Promise<void> {
  assertNotTooSoon(deps, options.sentAt);
  await countEmail(db, deps, context.ip);
  const token = await issueOneTimeToken(
    db,
    user.id,
    options.tokenType,
    options.to.toLowerCase(),
    deps.config.otpLength,
    { bindsPassword: options.bindsPassword },
  );
  const link = verifyLink(deps, token.hash, options.linkType, context.redirectTo);
  await queueEmail(db, {
    to: options.to,
    template: options.template,
    metadata: { user_id: user.id, link },
    ...options.render(link, token.otp),
  });
  await markSent(db, user.id, options.sentColumn);
}

/**
 * The sign-up confirmation. `bindsPassword`: sent for a sign-up that chose the
 * account's current password (or resent for one), so confirming it keeps that
 * password; any other confirmation of a never-confirmed account clears it (see
 * `issueOneTimeToken`).
 */
export function sendSignupConfirmation(
  db: Queryable,
  deps: AuthDependencies,
  context: SendContext,
  user: UserRow,
  bindsPassword: boolean,
) {
  return sendEmailToken(db, deps, context, user, {
    bindsPassword,
    tokenType: 'confirmation_token',
    sentColumn: 'confirmation_sent_at',
    sentAt: user.confirmation_sent_at,
    linkType: 'signup',
    template: 'auth.confirm_signup',
    to: user.email!,
    render: authEmails.confirmSignup,
  });
}

export function sendInvite(
  db: Queryable,
  deps: AuthDependencies,
  context: SendContext,
  user: UserRow,
) {
  return sendEmailToken(db, deps, context, user, {
    tokenType: 'confirmation_token',
    sentColumn: 'confirmation_sent_at',
    sentAt: null,
    linkType: 'invite',
    template: 'auth.invite',
    to: user.email!,
    render: (link) => authEmails.invite(link),
  });
}

export function sendMagicLink(
  db: Queryable,
  deps: AuthDependencies,
  context: SendContext,
  user: UserRow,
) {
  return sendEmailToken(db, deps, context, user, {
    tokenType: 'recovery_token',
    sentColumn: 'recovery_sent_at',
    sentAt: user.recovery_sent_at,
    linkType: 'magiclink',
    template: 'auth.magic_link',
    to: user.email!,
    render: authEmails.magicLink,
  });
}

export function sendRecovery(
  db: Queryable,
  deps: AuthDependencies,
  context: SendContext,
  user: UserRow,
) {
  return sendEmailToken(db, deps, context, user, {
    tokenType: 'recovery_token',
    sentColumn: 'recovery_sent_at',
    sentAt: user.recovery_sent_at,
    linkType: 'recovery',
    template: 'auth.recovery',
    to: user.email!,
    render: authEmails.recovery,
  });
}

/** Email change: a link to the new address, and (secure change) one to the current address too. */
export async function sendEmailChange(
  db: Queryable,
  deps: AuthDependencies,
  context: SendContext,
  user: UserRow,
  newEmail: string,
): Promise<void> {
  assertNotTooSoon(deps, user.email_change_sent_at);
  await countEmail(db, deps, context.ip);
  const toNew = await issueOneTimeToken(
    db,
    user.id,
    'email_change_token_new',
    newEmail,
    deps.config.otpLength,
  );
  const newLink = verifyLink(deps, toNew.hash, 'email_change', context.redirectTo);
  await queueEmail(db, {
    to: newEmail,
    template: 'auth.email_change_new',
    metadata: { user_id: user.id, link: newLink },
    ...authEmails.emailChangeNew(newLink, toNew.otp, newEmail),
  });
  if (deps.config.secureEmailChange && user.email) {
    const toCurrent = await issueOneTimeToken(
      db,
      user.id,
      'email_change_token_current',
      user.email.toLowerCase(),
      deps.config.otpLength,
    );
    const currentLink = verifyLink(deps, toCurrent.hash, 'email_change', context.redirectTo);
    await queueEmail(db, {
      to: user.email,
      template: 'auth.email_change_current',
      metadata: { user_id: user.id, link: currentLink },
      ...authEmails.emailChangeCurrent(currentLink, toCurrent.otp, newEmail),
    });
  }
  await db.query(
    `update auth.users set email_change = $2, email_change_sent_at = now(), email_change_confirm_status = 0,
       updated_at = now() where id = $1`,
    [user.id, newEmail],
  );
}

export async function sendReauthentication(
  db: Queryable,
  deps: AuthDependencies,
  context: SendContext,
  user: UserRow,
): Promise<void> {
  const viaEmail = Boolean(user.email);
  assertNotTooSoon(deps, user.reauthentication_sent_at, !viaEmail);
  const to = viaEmail ? user.email! : user.phone!;
  if (viaEmail) await countEmail(db, deps, context.ip);
  const token = await issueOneTimeToken(
    db,
    user.id,
    'reauthentication_token',
    to.toLowerCase(),
    deps.config.otpLength,
  );
  if (viaEmail) {
    await queueEmail(db, {
      to,
      template: 'auth.reauthentication',
      metadata: { user_id: user.id },
      ...authEmails.reauthentication(token.otp),
    });
  } else {
    await sendSms(db, deps, context, {
      to,
      userId: user.id,
      purpose: 'reauthentication',
      template: 'auth.reauthentication',
      text: authSms.reauthentication(token.otp),
    });
  }
  await markSent(db, user.id, 'reauthentication_sent_at');
}

/**
 * An SMS code: sign-up confirmation, sign-in (otp) or a phone change.
 * `bindsPassword` as for `sendSignupConfirmation` (confirmations only).
 */
export async function sendSmsCode(
  db: Queryable,
  deps: AuthDependencies,
  context: Pick<SendContext, 'ip'>,
  user: UserRow,
  purpose: 'confirmation' | 'otp' | 'phone_change',
  phone: string,
  bindsPassword = false,
): Promise<string> {
  const sentAt =
    purpose === 'phone_change'
      ? user.phone_change_sent_at
      : purpose === 'confirmation'
        ? user.confirmation_sent_at
        : user.recovery_sent_at;
  assertNotTooSoon(deps, sentAt, true);
  const tokenType: OneTimeTokenType =
    purpose === 'phone_change'
      ? 'phone_change_token'
      : purpose === 'confirmation'
        ? 'confirmation_token'
        : 'recovery_token';
  const token = await issueOneTimeToken(db, user.id, tokenType, phone, deps.config.otpLength, {
    bindsPassword,
  });
  const messageId = await sendSms(db, deps, context, {
    to: phone,
    userId: user.id,
    purpose: purpose === 'otp' ? 'sms' : purpose,
    template: `auth.sms_${purpose}`,
    text: purpose === 'phone_change' ? authSms.phoneChange(token.otp) : authSms.otp(token.otp),
  });
  await markSent(
    db,
    user.id,
    purpose === 'phone_change'
      ? 'phone_change_sent_at'
      : purpose === 'confirmation'
        ? 'confirmation_sent_at'
        : 'recovery_sent_at',
  );
  return messageId;
}
