/**
 * Turns what the auth client reports into one plain sentence and the field it
 * belongs to. Nothing the visitor sees is a raw code or a server message they
 * could not act on.
 */

export type AuthErrorField = 'contact' | 'password' | 'code' | 'form';

export interface AuthErrorMessage {
  field: AuthErrorField;
  message: string;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  status?: unknown;
  reasons?: unknown;
}

const WEAK_PASSWORD_REASONS: Record<string, string> = {
  length: 'it is too short',
  characters: 'it needs more kinds of characters',
  pwned: 'it is one of the most commonly used passwords',
};

/** "in about 3 minutes" from GoTrue's "…only request this after 175 seconds." */
function retryHint(message: string): string {
  const seconds = Number(/after (\d+) seconds?/.exec(message)?.[1]);
  if (!Number.isFinite(seconds) || seconds <= 0) return 'in a little while';
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in about ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

function weakPasswordSentence(error: ErrorLike, minLength: number): string {
  const reasons = Array.isArray(error.reasons) ? (error.reasons as unknown[]) : [];
  const parts = reasons
    .map((reason) => (typeof reason === 'string' ? WEAK_PASSWORD_REASONS[reason] : undefined))
    .filter((part): part is string => Boolean(part));
  if (reasons.includes('length')) {
    parts[parts.indexOf(WEAK_PASSWORD_REASONS.length!)] =
      `it is shorter than ${minLength} characters`;
  }
  if (parts.length === 0) return 'Choose a stronger password.';
  const list =
    parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `Choose a stronger password: ${list}.`;
}

export function describeAuthError(
  raw: unknown,
  options: { minPasswordLength?: number } = {},
): AuthErrorMessage {
  const error = (typeof raw === 'object' && raw !== null ? raw : {}) as ErrorLike;
  const code = typeof error.code === 'string' ? error.code : undefined;
  const message = typeof error.message === 'string' ? error.message : '';
  const name = typeof error.name === 'string' ? error.name : '';

  // The browser's passkey prompt, closed or timed out: the browser names it, not the server.
  if (
    code === 'ERROR_CEREMONY_ABORTED' ||
    name === 'NotAllowedError' ||
    name === 'AbortError' ||
    (typeof code === 'string' &&
      code.startsWith('ERROR_') &&
      /not allowed|timed out/i.test(message))
  ) {
    return { field: 'form', message: 'No passkey was used. Try again when you are ready.' };
  }
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return { field: 'form', message: 'This device already holds a passkey for your account.' };
  }
  if (message === 'Browser does not support WebAuthn') {
    return {
      field: 'form',
      message: 'This browser cannot use passkeys. Sign in with your password.',
    };
  }
  if (name === 'AuthRetryableFetchError' || name === 'TypeError' || error.status === 0) {
    return {
      field: 'form',
      message: 'We could not reach Cervana. Check your connection and try again.',
    };
  }
  if (name === 'AuthWeakPasswordError' || code === 'weak_password') {
    return {
      field: 'password',
      message: weakPasswordSentence(error, options.minPasswordLength ?? 8),
    };
  }
  // The client's own check, worded as the spec asks.
  if (message === 'You must provide either an email or phone number and a password') {
    return { field: 'contact', message };
  }
  switch (code) {
    case 'invalid_credentials':
      return {
        field: 'password',
        message: 'That email or phone number and password do not match an account.',
      };
    case 'email_not_confirmed':
      return {
        field: 'contact',
        message: 'Confirm your email address first: use the link or code we sent you.',
      };
    case 'phone_not_confirmed':
      return {
        field: 'contact',
        message: 'Confirm your phone number first: enter the code we texted you.',
      };
    case 'user_already_exists':
    case 'email_exists':
      return {
        field: 'contact',
        message: 'An account with this email address already exists. Sign in instead.',
      };
    case 'phone_exists':
      return {
        field: 'contact',
        message: 'An account with this phone number already exists. Sign in instead.',
      };
    case 'email_address_invalid':
      return { field: 'contact', message: 'Enter a valid email address.' };
    case 'validation_failed':
      if (/email/i.test(message))
        return { field: 'contact', message: 'Enter a valid email address.' };
      if (/phone/i.test(message)) {
        return {
          field: 'contact',
          message: 'Enter the phone number with its country code, for example +1 415 555 0142.',
        };
      }
      if (/password/i.test(message) && /72/.test(message)) {
        return { field: 'password', message: 'Use a password of at most 72 characters.' };
      }
      break;
    case 'otp_expired':
      return {
        field: 'code',
        message: 'That code is wrong or has expired. Check it, or ask for a new one.',
      };
    case 'mfa_verification_failed':
      return {
        field: 'code',
        message:
          'That code is not right. Enter the current 6-digit code from your authenticator app.',
      };
    case 'mfa_challenge_expired':
      return { field: 'code', message: 'That took too long. Enter a fresh code to try again.' };
    case 'same_password':
      return {
        field: 'password',
        message: 'Choose a password different from the one you have now.',
      };
    case 'reauthentication_needed':
    case 'reauthentication_not_valid':
      return {
        field: 'code',
        message: 'Enter the code we just emailed you to confirm it is you.',
      };
    case 'over_email_send_rate_limit':
      return {
        field: 'form',
        message: `We have just sent you an email. You can ask for another ${retryHint(message)}.`,
      };
    case 'over_sms_send_rate_limit':
      return {
        field: 'form',
        message: `We have just texted you a code. You can ask for another ${retryHint(message)}.`,
      };
    case 'over_request_rate_limit':
      return {
        field: 'form',
        message: 'Too many attempts in a short time. Wait a few minutes, then try again.',
      };
    case 'signup_disabled':
    case 'email_provider_disabled':
      return { field: 'form', message: 'New accounts cannot be created right now.' };
    case 'phone_provider_disabled':
      // Phone sign-in is off until an SMS provider is configured (the server's default).
      return {
        field: 'contact',
        message: 'Phone numbers cannot be used to sign in yet. Use your email address.',
      };
    case 'otp_disabled':
      return {
        field: 'contact',
        message: 'There is no account with this address. Create one first.',
      };
    case 'user_banned':
      return {
        field: 'form',
        message:
          'This account is suspended. Contact support@cervana.ai if you think this is a mistake.',
      };
    case 'session_not_found':
    case 'session_expired':
    case 'refresh_token_not_found':
    case 'refresh_token_already_used':
    case 'bad_jwt':
      return { field: 'form', message: 'Your session has ended. Sign in again to continue.' };
    case 'insufficient_aal':
      return {
        field: 'form',
        message: 'Confirm with your authenticator app code first, then try again.',
      };
    case 'webauthn_verification_failed':
      return {
        field: 'form',
        message: 'That passkey was not accepted. Try another one, or sign in with your password.',
      };
    case 'webauthn_challenge_expired':
    case 'webauthn_challenge_not_found':
      return { field: 'form', message: 'That took too long. Try the passkey again.' };
    case 'too_many_passkeys':
      return {
        field: 'form',
        message: 'Your account holds as many passkeys as it can. Remove one first.',
      };
    case 'webauthn_credential_exists':
      return { field: 'form', message: 'This device already holds a passkey for your account.' };
    case 'email_address_not_authorized':
      return { field: 'contact', message: 'We cannot send email to this address.' };
  }
  if (message === 'Passkey not found') {
    return { field: 'form', message: 'That passkey is no longer on your account.' };
  }
  if (/passkeys are disabled/i.test(message)) {
    return {
      field: 'form',
      message: 'Passkeys are not available yet. Sign in with your password.',
    };
  }
  if (message === 'Auth session missing!') {
    return { field: 'form', message: 'Your session has ended. Sign in again to continue.' };
  }
  return { field: 'form', message: 'Something went wrong on our side. Try again in a moment.' };
}
