import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * GoTrue's error bodies (contract §2.1), decided here and nowhere else:
 * `{code, message}` for clients that send X-Supabase-Api-Version ≥ 2024-01-01
 * (supabase-js always does), the legacy `{code: <status>, error_code, msg}`
 * otherwise, and OAuth's `{error, error_description}` where GoTrue uses it.
 */

export class AuthError extends Error {
  override name = 'AuthError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    /** Extra fields of the body, e.g. `weak_password`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: ContentfulStatusCode = 400,
  ) {
    super(description);
  }
}

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
const API_VERSION_2024 = '2024-01-01';

/** True when the client asked for the 2024-01-01 API (the `{code, message}` error body). */
export function usesApiVersion2024(headerValue: string | undefined): boolean {
  if (!headerValue) return false;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(headerValue.trim());
  if (!match) return false;
  const date = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return !Number.isNaN(date) && date >= Date.UTC(2024, 0, 1);
}

export function authErrorResponse(
  c: Context,
  error: AuthError | OAuthError,
  requestId: string,
): Response {
  if (error instanceof OAuthError) {
    return c.json({ error: error.error, error_description: error.description }, error.status);
  }
  if (usesApiVersion2024(c.req.header(API_VERSION_HEADER))) {
    c.header(API_VERSION_HEADER, API_VERSION_2024);
    return c.json({ code: error.code, message: error.message, ...error.extra }, error.status);
  }
  c.header('x-sb-error-code', error.code);
  return c.json(
    {
      code: error.status,
      error_code: error.code,
      msg: error.message,
      ...(error.status >= 500 ? { error_id: requestId } : {}),
      ...error.extra,
    },
    error.status,
  );
}

// The contract's errors, by situation. Messages are GoTrue's, word for word.

export const errors = {
  validation: (message: string, status: ContentfulStatusCode = 400) =>
    new AuthError(status, 'validation_failed', message),
  badJson: () => new AuthError(400, 'bad_json', 'Could not parse request body as JSON'),
  unexpected: () =>
    new AuthError(
      500,
      'unexpected_failure',
      'Unexpected failure, please check server logs for more information',
    ),
  noAuthorization: () =>
    new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (detail: string, status: ContentfulStatusCode = 403) =>
    new AuthError(status, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`),
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => new AuthError(400, 'email_not_confirmed', 'Email not confirmed'),
  phoneNotConfirmed: () => new AuthError(400, 'phone_not_confirmed', 'Phone not confirmed'),
  userBanned: () => new AuthError(400, 'user_banned', 'User is banned'),
  userNotFound: () => new AuthError(404, 'user_not_found', 'User not found'),
  signupDisabled: () =>
    new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance'),
  emailProviderDisabled: (message = 'Email signups are disabled') =>
    new AuthError(400, 'email_provider_disabled', message),
  phoneProviderDisabled: (message = 'Phone signups are disabled') =>
    new AuthError(400, 'phone_provider_disabled', message),
  anonymousDisabled: () =>
    new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled'),
  userAlreadyExists: () => new AuthError(422, 'user_already_exists', 'User already registered'),
  emailExists: () =>
    new AuthError(
      422,
      'email_exists',
      'A user with this email address has already been registered',
    ),
  phoneExists: () =>
    new AuthError(422, 'phone_exists', 'Phone number already registered by another user'),
  otpExpired: (message = 'Token has expired or is invalid') =>
    new AuthError(403, 'otp_expired', message),
  otpDisabled: () => new AuthError(422, 'otp_disabled', 'Signups not allowed for otp'),
  /** Per-IP limits (GoTrue's middleware). */
  overRequestRateLimit: () =>
    new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  /** Too many mails from one IP. */
  overEmailSendRateLimit: () =>
    new AuthError(429, 'over_email_send_rate_limit', 'email rate limit exceeded'),
  /** The same mail to the same user again too soon. */
  emailTooSoon: (secondsLeft: number) =>
    new AuthError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${secondsLeft} seconds.`,
    ),
  smsTooSoon: (secondsLeft: number) =>
    new AuthError(
      429,
      'over_sms_send_rate_limit',
      `For security purposes, you can only request this after ${secondsLeft} seconds.`,
    ),
  weakPassword: (message: string, reasons: string[]) =>
    new AuthError(422, 'weak_password', message, { weak_password: { reasons } }),
  samePassword: () =>
    new AuthError(422, 'same_password', 'New password should be different from the old password.'),
  notAdmin: (message = 'User not allowed') => new AuthError(403, 'not_admin', message),
  sessionNotFound: () =>
    new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  insufficientAal: (message: string) => new AuthError(422, 'insufficient_aal', message),
  manualLinkingDisabled: () =>
    new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled'),
  samlDisabled: () => new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled'),
  web3Disabled: () => new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled'),
  requestTooLarge: () => new AuthError(413, 'request_entity_too_large', 'Request body too large'),
  notFound: () => new AuthError(404, 'not_found', 'Not Found'),
  methodNotAllowed: () => new AuthError(405, 'method_not_allowed', 'Method Not Allowed'),
};
