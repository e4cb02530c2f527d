import { z } from 'zod';
import { SMS_COUNTRIES, type SmsCountry } from './sms-countries';

/**
 * The auth service's settings, named as GoTrue names them so a deployment's
 * existing values carry over. Parsed once with the rest of the config.
 */

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .transform((value) => ['true', '1', 'yes', 'on'].includes(value))
    .default(fallback);

const count = (fallback: number, max = 1_000_000) =>
  z.coerce.number().int().min(0).max(max).default(fallback);

const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

export const authEnvironmentSchema = z.object({
  DISABLE_SIGNUP: flag(false),
  MAILER_AUTOCONFIRM: flag(false),
  SMS_AUTOCONFIRM: flag(false),
  EXTERNAL_EMAIL_ENABLED: flag(true),
  EXTERNAL_PHONE_ENABLED: flag(true),
  EXTERNAL_ANONYMOUS_USERS_ENABLED: flag(false),
  SECURITY_MANUAL_LINKING_ENABLED: flag(false),
  SECURITY_REFRESH_TOKEN_ROTATION_ENABLED: flag(true),
  SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: count(10, 3600),
  SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: flag(false),
  SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD: flag(false),
  MAILER_SECURE_EMAIL_CHANGE_ENABLED: flag(true),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(72).default(8),
  PASSWORD_REQUIRED_CHARACTERS: z.string().default(''),
  PASSWORD_REJECT_COMMON: flag(true),
  MAILER_OTP_EXP: count(3600, 86400),
  SMS_OTP_EXP: count(300, 86400),
  OTP_LENGTH: z.coerce.number().int().min(6).max(10).default(6),
  SMS_TEST_OTP: z.string().default(''),
  // No provider: no text is ever sent, and phone sign-in and phone MFA are off
  // (except for SMS_TEST_OTP numbers, which are never texted).
  // `log` (development and tests only) writes each text, code included, to the log.
  SMS_PROVIDER: z.enum(['', 'none', 'log']).default(''),
  SMS_ALLOWED_COUNTRIES: z
    .string()
    .default('US,CA,GB')
    .transform((value, context): SmsCountry[] => {
      const codes = value
        .split(',')
        .map((code) => code.trim().toUpperCase())
        .filter(Boolean);
      const unknown = codes.filter((code) => !(code in SMS_COUNTRIES));
      if (unknown.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `unsupported countries ${unknown.join(', ')} (supported: ${Object.keys(SMS_COUNTRIES).join(', ')})`,
        });
        return z.NEVER;
      }
      return codes as SmsCountry[];
    }),
  URI_ALLOW_LIST: list,
  JWT_AUD: z.string().trim().min(1).default('authenticated'),
  JWT_DEFAULT_GROUP_NAME: z.string().trim().min(1).default('authenticated'),
  JWT_ADMIN_ROLES: z.string().default('service_role,supabase_admin'),
  MFA_MAX_ENROLLED_FACTORS: count(10, 100),
  MFA_TOTP_ENROLL_ENABLED: flag(true),
  MFA_TOTP_VERIFY_ENABLED: flag(true),
  MFA_PHONE_ENROLL_ENABLED: flag(true),
  MFA_PHONE_VERIFY_ENABLED: flag(true),
  // On here, unlike GoTrue: Cervana offers security keys as a second factor (decision 040).
  MFA_WEB_AUTHN_ENROLL_ENABLED: flag(true),
  MFA_WEB_AUTHN_VERIFY_ENABLED: flag(true),
  MFA_CHALLENGE_EXPIRY_DURATION: count(300, 86400),
  SAML_ENABLED: flag(false),
  // Passkeys (GoTrue's GOTRUE_PASSKEY_* and GOTRUE_WEBAUTHN_*). Relying party
  // id and origins default to SITE_URL's host and origin.
  // On here, unlike GoTrue: Cervana's sign-in page and account settings offer passkeys (decision 039).
  PASSKEY_ENABLED: flag(true),
  PASSKEY_MAX_PASSKEYS_PER_USER: count(10, 100),
  WEBAUTHN_RP_ID: z.string().trim().default(''),
  WEBAUTHN_RP_DISPLAY_NAME: z.string().trim().min(1).default('Cervana'),
  WEBAUTHN_RP_ORIGINS: list,
  WEBAUTHN_CHALLENGE_EXPIRY_DURATION: count(300, 86400), // seconds
  // The OAuth 2.1 server (GoTrue's OAUTH_SERVER_*). On here, unlike GoTrue: the site has its
  // consent page at /oauth/consent and account settings list the apps allowed (decision 041).
  OAUTH_SERVER_ENABLED: flag(true),
  OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: flag(false),
  // The site's consent page, e.g. /oauth/consent (GoTrue redirects there with ?authorization_id=).
  OAUTH_SERVER_AUTHORIZATION_PATH: z
    .string()
    .trim()
    .default('/oauth/consent')
    .refine((value) => value === '' || /^\/?[A-Za-z0-9\-._~/]*$/.test(value), 'must be a path'),
  // How long an authorization request (and its code) lives: seconds, or Go's 10m / 1h / 600s.
  OAUTH_SERVER_AUTHORIZATION_TTL: z
    .string()
    .trim()
    .default('10m')
    .transform((value, context) => {
      const match = /^(\d+)(s|m|h)?$/.exec(value);
      const seconds = match ? Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] ?? 's']! : NaN;
      if (!(seconds >= 1 && seconds <= 86400)) {
        context.addIssue({ code: 'custom', message: 'must be between 1s and 24h' });
        return z.NEVER;
      }
      return seconds;
    }),
  RATE_LIMIT_OAUTH_DYNAMIC_REGISTRATION: count(10), // per hour, per IP
  RATE_LIMIT_OAUTH_AUTHORIZE: count(100), // authorization requests per 5 minutes, per IP
  SMTP_URL: z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : value))
    .pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
        .optional(),
    )
    .optional(),
  SMTP_FROM: z.string().trim().min(3).default('Cervana <no-reply@cervana.ai>'),
  SEED_DEMO: flag(true),
  // Per-IP limits (GoTrue's defaults), and the per-account failed sign-in limit.
  RATE_LIMIT_EMAIL_SENT: count(30), // per hour, per IP
  RATE_LIMIT_SMS_SENT: count(30), // per hour, per IP
  RATE_LIMIT_SMS_SENT_PER_USER: count(10), // per hour, per user
  RATE_LIMIT_SMS_SENT_PER_PREFIX: count(10), // per hour, per block of 10,000 numbers
  RATE_LIMIT_SMS_SENT_TOTAL: count(100), // per hour, for the whole service
  RATE_LIMIT_VERIFY: count(30), // per 5 minutes, per IP
  RATE_LIMIT_TOKEN_REFRESH: count(150), // per 5 minutes, per IP
  RATE_LIMIT_SIGN_IN_SIGN_UPS: count(30), // per 5 minutes, per IP
  RATE_LIMIT_ANONYMOUS_USERS: count(30), // per hour, per IP
  RATE_LIMIT_OTP: count(30), // per hour, per IP
  RATE_LIMIT_FAILED_SIGN_INS: count(100), // per hour, per account
  RATE_LIMIT_MFA_CHALLENGE_AND_VERIFY: count(30), // per 2 minutes, per IP, each endpoint
  RATE_LIMIT_PASSKEY: count(30), // passkey sign-in ceremonies, per 5 minutes, per IP
  MAILER_MAX_FREQUENCY: count(60, 86400), // seconds between two mails of a kind to one user
});

export type AuthEnvironment = z.infer<typeof authEnvironmentSchema>;

export interface RateLimits {
  emailSentPerHour: number;
  smsSentPerHour: number;
  smsSentPerUserPerHour: number;
  smsSentPerPrefixPerHour: number;
  smsSentTotalPerHour: number;
  verifyPer5Minutes: number;
  tokenRefreshPer5Minutes: number;
  signInSignUpPer5Minutes: number;
  anonymousUsersPerHour: number;
  otpPerHour: number;
  /** MFA challenges, and separately verifications, per IP in 2 minutes. */
  mfaChallengeAndVerifyPer2Minutes: number;
  failedSignInsPerAccountPerHour: number;
  /** Passkey sign-in options (ceremonies started) per IP in 5 minutes. */
  passkeyPer5Minutes: number;
}

export interface AuthConfig {
  siteUrl: string;
  apiUrl: string;
  disableSignup: boolean;
  mailerAutoconfirm: boolean;
  smsAutoconfirm: boolean;
  emailEnabled: boolean;
  /** Phone sign-up and sign-in: EXTERNAL_PHONE_ENABLED, and only with an SMS provider. */
  phoneEnabled: boolean;
  /** EXTERNAL_PHONE_ENABLED as set: test numbers (SMS_TEST_OTP) sign in with it, provider or not. */
  externalPhoneEnabled: boolean;
  sms: {
    /** Where texts go; undefined: nowhere (phone sign-in and phone MFA are then off). */
    provider: 'log' | undefined;
    /** The countries texts may be sent to. */
    allowedCountries: SmsCountry[];
  };
  anonymousEnabled: boolean;
  manualLinkingEnabled: boolean;
  refreshTokenRotation: boolean;
  refreshTokenReuseIntervalSeconds: number;
  passwordChangeRequiresReauthentication: boolean;
  passwordChangeRequiresCurrentPassword: boolean;
  secureEmailChange: boolean;
  password: { minLength: number; requiredCharacterSets: string[]; rejectCommon: boolean };
  emailOtpExpirySeconds: number;
  smsOtpExpirySeconds: number;
  otpLength: number;
  /** phone → fixed code, for tests (GoTrue's SMS_TEST_OTP). */
  smsTestOtp: Map<string, string>;
  /** Where redirects may point besides the site itself (exact URLs or `*` globs). */
  redirectAllowList: string[];
  audience: string;
  defaultRole: string;
  adminRoles: string[];
  jwtExpirySeconds: number;
  jwtIssuer: string;
  /** Phone factors need an SMS provider as well as their MFA_PHONE_* flag. */
  mfa: {
    maxFactors: number;
    totpEnroll: boolean;
    totpVerify: boolean;
    phoneEnroll: boolean;
    phoneVerify: boolean;
    /** WebAuthn (security key) factors: off unless turned on, as in GoTrue. */
    webauthnEnroll: boolean;
    webauthnVerify: boolean;
    challengeExpirySeconds: number;
  };
  samlEnabled: boolean;
  passkey: {
    enabled: boolean;
    maxPerUser: number;
    rpId: string;
    rpName: string;
    /** Origins (scheme://host[:port]) the browser ceremony may run on. */
    rpOrigins: string[];
    challengeExpirySeconds: number;
  };
  oauthServer: {
    enabled: boolean;
    allowDynamicRegistration: boolean;
    /** The consent page's path on the site; '' sends clients an error instead. */
    authorizationPath: string;
    authorizationTtlSeconds: number;
    dynamicRegistrationsPerHour: number;
    authorizationsPer5Minutes: number;
  };
  smtpUrl: string | undefined;
  smtpFrom: string;
  seedDemoAccounts: boolean;
  rateLimits: RateLimits;
  mailerMaxFrequencySeconds: number;
}

function parseTestOtp(value: string): Map<string, string> {
  const pairs = value
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => pair.split(/[:=]/).map((part) => part.trim()));
  return new Map(
    pairs
      .filter(
        (pair): pair is [string, string] =>
          pair.length === 2 && Boolean(pair[0]) && Boolean(pair[1]),
      )
      .map(([phone, code]) => [phone.replace(/^\+/, ''), code]),
  );
}

export function toAuthConfig(
  values: AuthEnvironment,
  context: { siteUrl: string; apiUrl: string; jwtExpirySeconds: number; jwtIssuer: string },
): AuthConfig {
  const smsProvider = values.SMS_PROVIDER === 'log' ? 'log' : undefined;
  return {
    siteUrl: context.siteUrl,
    apiUrl: context.apiUrl,
    disableSignup: values.DISABLE_SIGNUP,
    mailerAutoconfirm: values.MAILER_AUTOCONFIRM,
    smsAutoconfirm: values.SMS_AUTOCONFIRM,
    emailEnabled: values.EXTERNAL_EMAIL_ENABLED,
    phoneEnabled: values.EXTERNAL_PHONE_ENABLED && smsProvider !== undefined,
    externalPhoneEnabled: values.EXTERNAL_PHONE_ENABLED,
    sms: { provider: smsProvider, allowedCountries: values.SMS_ALLOWED_COUNTRIES },
    anonymousEnabled: values.EXTERNAL_ANONYMOUS_USERS_ENABLED,
    manualLinkingEnabled: values.SECURITY_MANUAL_LINKING_ENABLED,
    refreshTokenRotation: values.SECURITY_REFRESH_TOKEN_ROTATION_ENABLED,
    refreshTokenReuseIntervalSeconds: values.SECURITY_REFRESH_TOKEN_REUSE_INTERVAL,
    passwordChangeRequiresReauthentication:
      values.SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION,
    passwordChangeRequiresCurrentPassword: values.SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD,
    secureEmailChange: values.MAILER_SECURE_EMAIL_CHANGE_ENABLED,
    password: {
      minLength: values.PASSWORD_MIN_LENGTH,
      requiredCharacterSets: values.PASSWORD_REQUIRED_CHARACTERS.split(':').filter(Boolean),
      rejectCommon: values.PASSWORD_REJECT_COMMON,
    },
    emailOtpExpirySeconds: values.MAILER_OTP_EXP,
    smsOtpExpirySeconds: values.SMS_OTP_EXP,
    otpLength: values.OTP_LENGTH,
    smsTestOtp: parseTestOtp(values.SMS_TEST_OTP),
    redirectAllowList: values.URI_ALLOW_LIST,
    audience: values.JWT_AUD,
    defaultRole: values.JWT_DEFAULT_GROUP_NAME,
    adminRoles: values.JWT_ADMIN_ROLES.split(',')
      .map((role) => role.trim())
      .filter(Boolean),
    jwtExpirySeconds: context.jwtExpirySeconds,
    jwtIssuer: context.jwtIssuer,
    mfa: {
      maxFactors: values.MFA_MAX_ENROLLED_FACTORS,
      totpEnroll: values.MFA_TOTP_ENROLL_ENABLED,
      totpVerify: values.MFA_TOTP_VERIFY_ENABLED,
      phoneEnroll: values.MFA_PHONE_ENROLL_ENABLED && smsProvider !== undefined,
      phoneVerify: values.MFA_PHONE_VERIFY_ENABLED && smsProvider !== undefined,
      webauthnEnroll: values.MFA_WEB_AUTHN_ENROLL_ENABLED,
      webauthnVerify: values.MFA_WEB_AUTHN_VERIFY_ENABLED,
      challengeExpirySeconds: values.MFA_CHALLENGE_EXPIRY_DURATION,
    },
    samlEnabled: values.SAML_ENABLED,
    passkey: {
      enabled: values.PASSKEY_ENABLED,
      maxPerUser: values.PASSKEY_MAX_PASSKEYS_PER_USER,
      rpId: values.WEBAUTHN_RP_ID || new URL(context.siteUrl).hostname,
      rpName: values.WEBAUTHN_RP_DISPLAY_NAME,
      rpOrigins:
        values.WEBAUTHN_RP_ORIGINS.length > 0
          ? values.WEBAUTHN_RP_ORIGINS
          : [new URL(context.siteUrl).origin],
      challengeExpirySeconds: values.WEBAUTHN_CHALLENGE_EXPIRY_DURATION,
    },
    oauthServer: {
      enabled: values.OAUTH_SERVER_ENABLED,
      allowDynamicRegistration: values.OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION,
      authorizationPath: values.OAUTH_SERVER_AUTHORIZATION_PATH,
      authorizationTtlSeconds: values.OAUTH_SERVER_AUTHORIZATION_TTL,
      dynamicRegistrationsPerHour: values.RATE_LIMIT_OAUTH_DYNAMIC_REGISTRATION,
      authorizationsPer5Minutes: values.RATE_LIMIT_OAUTH_AUTHORIZE,
    },
    smtpUrl: values.SMTP_URL,
    smtpFrom: values.SMTP_FROM,
    seedDemoAccounts: values.SEED_DEMO,
    rateLimits: {
      emailSentPerHour: values.RATE_LIMIT_EMAIL_SENT,
      smsSentPerHour: values.RATE_LIMIT_SMS_SENT,
      smsSentPerUserPerHour: values.RATE_LIMIT_SMS_SENT_PER_USER,
      smsSentPerPrefixPerHour: values.RATE_LIMIT_SMS_SENT_PER_PREFIX,
      smsSentTotalPerHour: values.RATE_LIMIT_SMS_SENT_TOTAL,
      verifyPer5Minutes: values.RATE_LIMIT_VERIFY,
      tokenRefreshPer5Minutes: values.RATE_LIMIT_TOKEN_REFRESH,
      signInSignUpPer5Minutes: values.RATE_LIMIT_SIGN_IN_SIGN_UPS,
      anonymousUsersPerHour: values.RATE_LIMIT_ANONYMOUS_USERS,
      otpPerHour: values.RATE_LIMIT_OTP,
      mfaChallengeAndVerifyPer2Minutes: values.RATE_LIMIT_MFA_CHALLENGE_AND_VERIFY,
      failedSignInsPerAccountPerHour: values.RATE_LIMIT_FAILED_SIGN_INS,
      passkeyPer5Minutes: values.RATE_LIMIT_PASSKEY,
    },
    mailerMaxFrequencySeconds: values.MAILER_MAX_FREQUENCY,
  };
}
