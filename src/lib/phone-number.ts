/**
 * A stored E.164 number as people read it: North American numbers as
 * '+1 (415) 555-0100', others as stored (their grouping varies by country).
 */
export function formatPhoneNumber(e164: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return nanp ? `+1 (${nanp[1]}) ${nanp[2]}-${nanp[3]}` : e164;
}

/** E.164: +, a country code that does not start with 0, at most 15 digits in all. */
export const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * A number as people type it ('+1 (415) 555-0100', '0044 20 7946 0958') in
 * the form the database stores: spaces, dots, dashes and brackets dropped,
 * a leading 00 read as +. The database cleans it the same way (private.clean_e164).
 */
export function normalizePhoneNumber(value: string): string {
  const digits = value.replace(/[\s().-]/g, '');
  return digits.startsWith('00') ? `+${digits.slice(2)}` : digits;
}

export const PHONE_NUMBER_HINT =
  'Enter the number in international format, starting with + and the country code, like +1 415 555 0100.';
