import type { Queryable } from '../db/database';
import { queueSms } from '../mail/outbox';
import type { AuthConfig } from './auth-config';
import type { AuthDependencies } from './context';
import { AuthError, errors } from './errors';
import { accountKey, hitRateLimit, networkKey } from './rate-limits';
import { destinationBlock, isTextable } from './sms-countries';

/**
 * Every text the auth service sends goes through `sendSms`: sign-up and sign-in
 * codes, phone changes, resends, reauthentication and phone-MFA challenges.
 * Nothing is sent to a test number (`SMS_TEST_OTP`: its code is fixed, no
 * provider needed), nor without an SMS provider (`SMS_PROVIDER`), nor to a number
 * outside `SMS_ALLOWED_COUNTRIES`; and each text counts against four hourly
 * limits, all of which it must pass: the caller's network, the user, the
 * destination's block of 10,000 numbers, and the whole service. Counted in the
 * caller's transaction, so a refused or failed request counts nothing.
 */

export interface Text {
  /** E.164 digits without the `+`. */
  to: string;
  /** The user it is sent for (the counts are kept per user). */
  userId: string;
  /** As GoTrue names the code in its errors: confirmation, sms, phone_change, reauthentication, mfa. */
  purpose: string;
  template: string;
  text: string;
  metadata?: Record<string, unknown>;
}

/** The message id GoTrue answers for a number with a fixed test code (`SMS_TEST_OTP`). */
export const TEST_OTP_MESSAGE_ID = 'test-otp';

const HOUR = 3600;

export function overSmsSendRateLimit(): AuthError {
  return new AuthError(429, 'over_sms_send_rate_limit', 'SMS rate limit exceeded');
}

/** Phone sign-in, sign-up and codes by text need a provider; GoTrue's answer without one. */
export function assertSmsProvider(deps: AuthDependencies): void {
  if (!deps.config.sms.provider) throw errors.phoneProviderDisabled('Unsupported phone provider');
}

/**
 * Whether phone sign-up, sign-in and codes by text are on for this number
 * (E.164 digits, or null when it is not one): EXTERNAL_PHONE_ENABLED with an SMS
 * provider; or, provider or not, a test number of SMS_TEST_OTP, which is never
 * texted (its code is fixed), as in GoTrue.
 */
export function phoneAllowed(config: AuthConfig, phone: string | null | undefined): boolean {
  if (config.phoneEnabled) return true;
  return config.externalPhoneEnabled && Boolean(phone) && config.smsTestOtp.has(phone!);
}

/** Counts and queues one text; returns its message id. */
export async function sendSms(
  db: Queryable,
  deps: AuthDependencies,
  context: { ip: string },
  message: Text,
): Promise<string> {
  const { config } = deps;
  // A test number is the operator's own: no text goes to it (its code is fixed),
  // so it needs no provider.
  if (config.smsTestOtp.has(message.to)) return TEST_OTP_MESSAGE_ID;
  assertSmsProvider(deps);
  if (!isTextable(message.to, config.sms.allowedCountries)) {
    throw new AuthError(
      422,
      'sms_send_failed',
      `Error sending ${message.purpose} OTP to provider: texts are not sent to this number's country or range`,
    );
  }
  const limits = config.rateLimits;
  await hitRateLimit(
    db,
    networkKey('sms', context.ip),
    limits.smsSentPerHour,
    HOUR,
    overSmsSendRateLimit,
  );
  await hitRateLimit(
    db,
    accountKey('sms_user', message.userId),
    limits.smsSentPerUserPerHour,
    HOUR,
    overSmsSendRateLimit,
  );
  await hitRateLimit(
    db,
    accountKey('sms_block', destinationBlock(message.to)),
    limits.smsSentPerPrefixPerHour,
    HOUR,
    overSmsSendRateLimit,
  );
  await hitRateLimit(
    db,
    accountKey('sms_total', 'all'),
    limits.smsSentTotalPerHour,
    HOUR,
    overSmsSendRateLimit,
  );
  return queueSms(db, {
    to: `+${message.to}`,
    template: message.template,
    text: message.text,
    metadata: { user_id: message.userId, ...message.metadata },
  });
}
