/**
 * The sign-in forms take "email or phone" in one field: an @ means email,
 * otherwise digits (with spaces, dashes, dots or brackets) mean a phone number,
 * sent in E.164 form.
 */
export type Contact =
  | { kind: 'email'; email: string }
  | { kind: 'phone'; phone: string }
  | { kind: 'invalid-email' }
  | { kind: 'invalid-phone' }
  | { kind: 'missing' };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function parseContact(value: string): Contact {
  const trimmed = value.trim();
  if (trimmed === '') return { kind: 'missing' };
  if (trimmed.includes('@')) {
    return EMAIL.test(trimmed)
      ? { kind: 'email', email: trimmed.toLowerCase() }
      : { kind: 'invalid-email' };
  }
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return { kind: 'invalid-email' };
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) return { kind: 'invalid-phone' };
  return { kind: 'phone', phone: `+${digits}` };
}

/** How a contact is shown back: the address, or the number as typed in E.164. */
export function describeContact(contact: Extract<Contact, { kind: 'email' | 'phone' }>): string {
  return contact.kind === 'email' ? contact.email : contact.phone;
}
