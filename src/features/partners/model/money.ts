/**
 * Money arrives from the database as integer minor units ("cents") with an
 * ISO currency. The currency decides how many minor units a unit has (JPY has
 * none), so the divisor comes from Intl rather than a fixed 100.
 */

function fractionDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2; // an unknown code: show it as the database most likely meant
  }
}

/** 123450, 'USD' → '$1,234.50' in the browser's language. */
export function formatMoney(cents: number, currency: string, locale?: string): string {
  const amount = cents / 10 ** fractionDigits(currency);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}
