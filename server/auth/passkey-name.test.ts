import { describe, expect, it } from 'vitest';
import { passkeyName } from './passkeys';

describe('passkeyName', () => {
  it('names a passkey after its provider, as GoTrue does', () => {
    expect(passkeyName('ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4')).toBe('Google Password Manager');
    expect(passkeyName('BADA5566-A7AA-401F-BD96-45619A55120D')).toBe('1Password');
  });

  it('says "Passkey" for no, an unknown or a hostile AAGUID', () => {
    expect(passkeyName('00000000-0000-0000-0000-000000000000')).toBe('Passkey');
    expect(passkeyName('12345678-1234-1234-1234-123456789abc')).toBe('Passkey');
    expect(passkeyName('__proto__')).toBe('Passkey');
    expect(passkeyName('constructor')).toBe('Passkey');
  });
});
