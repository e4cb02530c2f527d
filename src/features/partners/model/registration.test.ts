import { describe, expect, it } from 'vitest';
import {
  callVolumeLabel,
  emptyRegistration,
  registrationSchema,
  registrationStatus,
  teamSizeLabel,
  type RegistrationValues,
} from './registration';

const valid: RegistrationValues = {
  company: '  Northwind Traders ',
  contactName: 'Ada Byron',
  contactEmail: 'ada@northwind.example',
  teamSize: '21-50',
  monthlyCallVolume: '2000-10000',
  notes: '',
};

const messages = (values: RegistrationValues) => {
  const result = registrationSchema.safeParse(values);
  // The first sentence per field, as the form shows it.
  return result.success
    ? {}
    : Object.fromEntries(
        result.error.issues.reverse().map((issue) => [issue.path[0], issue.message]),
      );
};

describe('registrationSchema', () => {
  it('accepts a complete registration, trimmed', () => {
    expect(registrationSchema.parse(valid)).toMatchObject({ company: 'Northwind Traders' });
  });

  it('asks for every required answer, as the database words it', () => {
    expect(messages(emptyRegistration)).toEqual({
      company: 'Please enter the prospect’s company.',
      contactName: 'Please enter your contact’s name.',
      contactEmail: 'Please enter your contact’s work email.',
      teamSize: 'Please choose the size of their team.',
      monthlyCallVolume: 'Please choose their monthly call volume.',
    });
  });

  it('refuses a company name without letters or digits, as company_key does', () => {
    expect(messages({ ...valid, company: '!!!' }).company).toBe(
      'Please enter the company’s name with letters or digits.',
    );
    expect(messages({ ...valid, company: 'Café Müller' })).toEqual({});
  });

  it('refuses an invalid address and values the database does not offer', () => {
    expect(messages({ ...valid, contactEmail: 'ada@' }).contactEmail).toMatch(/valid email/);
    expect(messages({ ...valid, teamSize: '7' as never }).teamSize).toBeDefined();
    expect(
      messages({ ...valid, monthlyCallVolume: 'lots' as never }).monthlyCallVolume,
    ).toBeDefined();
  });

  it('keeps notes to 2,000 characters and names under 121', () => {
    expect(messages({ ...valid, notes: 'x'.repeat(2000) })).toEqual({});
    expect(messages({ ...valid, notes: 'x'.repeat(2001) }).notes).toBe(
      'Please keep your notes under 2,001 characters.',
    );
    expect(messages({ ...valid, contactName: 'x'.repeat(121) }).contactName).toMatch(/under 121/);
  });

  it('refuses control characters in single-line answers', () => {
    expect(messages({ ...valid, company: 'Acme\u0007' }).company).toMatch(/special characters/);
  });
});

describe('labels', () => {
  it('words the choices and statuses', () => {
    expect(teamSizeLabel('200+')).toBe('More than 200');
    expect(callVolumeLabel('under-500')).toBe('Fewer than 500 calls');
    expect(callVolumeLabel('unknown')).toBe('unknown');
    expect(registrationStatus('accepted')).toBe('accepted');
    expect(registrationStatus('odd')).toBe('pending');
  });
});
