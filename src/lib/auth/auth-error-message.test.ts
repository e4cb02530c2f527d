import { describe, expect, it } from 'vitest';
import { describeAuthError } from './auth-error-message';

describe('auth errors, as a person reads them', () => {
  it('put a wrong password on the password field', () => {
    expect(
      describeAuthError({ name: 'AuthApiError', code: 'invalid_credentials', status: 400 }),
    ).toEqual({
      field: 'password',
      message: 'That email or phone number and password do not match an account.',
    });
  });

  it('list every reason a password is weak', () => {
    const error = {
      name: 'AuthWeakPasswordError',
      code: 'weak_password',
      reasons: ['length', 'pwned'],
    };
    expect(describeAuthError(error, { minPasswordLength: 8 })).toEqual({
      field: 'password',
      message:
        'Choose a stronger password: it is shorter than 8 characters and it is one of the most commonly used passwords.',
    });
  });

  it('say when a rate-limited request can be tried again', () => {
    const error = {
      code: 'over_email_send_rate_limit',
      message: 'For security purposes, you can only request this after 175 seconds.',
    };
    expect(describeAuthError(error).message).toBe(
      'We have just sent you an email. You can ask for another in about 3 minutes.',
    );
    expect(describeAuthError({ ...error, message: 'after 20 seconds.' }).message).toContain(
      'in 20 seconds',
    );
  });

  it('point a phone number to email while phone sign-in is off', () => {
    expect(
      describeAuthError({ name: 'AuthApiError', code: 'phone_provider_disabled', status: 422 }),
    ).toEqual({
      field: 'contact',
      message: 'Phone numbers cannot be used to sign in yet. Use your email address.',
    });
  });

  it('keep the spec’s sentence for missing credentials', () => {
    const message = 'You must provide either an email or phone number and a password';
    expect(describeAuthError({ name: 'AuthInvalidCredentialsError', message })).toEqual({
      field: 'contact',
      message,
    });
  });

  it('treat network failures as retryable, in words', () => {
    expect(describeAuthError({ name: 'AuthRetryableFetchError', status: 0 }).message).toBe(
      'We could not reach Cervana. Check your connection and try again.',
    );
  });

  it('never show a raw code or server message', () => {
    for (const error of [
      { code: 'unexpected_failure', message: 'pq: relation does not exist' },
      'boom',
      null,
      42,
    ]) {
      const { message } = describeAuthError(error);
      expect(message).toBe('Something went wrong on our side. Try again in a moment.');
    }
  });
});
