/**
 * A stored E.164 number as people read it: North American numbers as
 * '+1 (415) 555-0100', others as stored (their grouping varies by country).
 */
export function formatPhoneNumber(e164: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return nanp ? `+1 (${nanp[1]}) ${nanp[2]}-${nanp[3]}` : e164;
}
