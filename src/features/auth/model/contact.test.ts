import { describe, expect, it } from 'vitest';
import { parseContact } from './contact';
import { MISSING_CREDENTIALS, signInSchema, signUpSchema } from './schemas';

describe('one field for email or phone', () => {
  it('reads an address or a number in E.164', () => {
    expect(parseContact(' Ada@Example.COM ')).toEqual({ kind: 'email', email: 'ada@example.com' });
    expect(parseContact('+1 (415) 555-0142')).toEqual({ kind: 'phone', phone: '+14155550142' });
    expect(parseContact('')).toEqual({ kind: 'missing' });
    expect(parseContact('ada@')).toEqual({ kind: 'invalid-email' });
    expect(parseContact('ada')).toEqual({ kind: 'invalid-email' });
    expect(parseContact('12345')).toEqual({ kind: 'invalid-phone' });
  });
});

describe('sign-in and sign-up validation', () => {
  it('uses the spec’s sentence when neither email nor phone is given', () => {
    const result = signInSchema.safeParse({ contact: '', password: 'secret' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['contact'], message: MISSING_CREDENTIALS }),
    ]);
  });

  it('asks for the password on its own when the contact is there', () => {
    const result = signInSchema.safeParse({ contact: 'ada@example.com', password: '' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Enter your password.']);
  });

  it('checks every sign-up field', () => {
    const result = signUpSchema.safeParse({
      fullName: ' ',
      company: '',
      contact: 'x@',
      password: 'short',
    });
    expect(
      Object.fromEntries(result.error!.issues.map((issue) => [issue.path[0], issue.message])),
    ).toEqual({
      fullName: 'Enter your full name.',
      company: 'Enter your company’s name.',
      contact: 'Enter a valid email address, like name@company.com.',
      password: 'Use at least 8 characters.',
    });
  });
});
