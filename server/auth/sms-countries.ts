/**
 * The countries a text may be sent to (`SMS_ALLOWED_COUNTRIES`), each as the
 * numbers of it that can receive one: mobile ranges where the numbering plan
 * has them, never premium-rate, personal or shared-cost ranges. Numbers are
 * E.164 digits without the `+` (as `normalisePhone` keeps them).
 *
 * The North American plan (+1) covers the US, Canada and some twenty other
 * countries and territories, Caribbean ones among them (the usual target of
 * toll fraud): a +1 number is Canadian by its area code, and American only when
 * its area code belongs to no one else and is not a premium or special range.
 */

/** Canadian area codes (the North American Numbering Plan Administrator's list). */
const CANADA = new Set(
  (
    '204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 387 403 416 ' +
    '418 428 431 437 438 450 460 468 474 506 514 519 548 579 581 584 587 604 ' +
    '613 639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 879 ' +
    '902 905 942'
  ).split(' '),
);

/** Area codes of the plan's other members: the Caribbean, Bermuda and the US territories. */
const OTHER_NANP = new Set(
  (
    '242 246 264 268 284 340 345 441 473 649 658 664 670 671 684 721 758 767 ' +
    '784 787 809 829 849 868 869 876 939'
  ).split(' '),
);

/** A +1 number: area code and exchange each start with 2–9, and neither is an N11 service code. */
function northAmerican(digits: string): string | undefined {
  const match = /^1([2-9]\d{2})([2-9]\d{2})\d{4}$/.exec(digits);
  if (!match) return undefined;
  const [, area, exchange] = match as unknown as [string, string, string];
  if (area[1] === '1' && area[2] === '1') return undefined;
  if (exchange[1] === '1' && exchange[2] === '1') return undefined;
  return area;
}

/** +1 area codes that are not places: personal (5XX), 600, 700, toll-free, premium rate (900). */
const NANP_SPECIAL = new Set(
  (
    '500 521 522 523 524 525 526 527 528 529 533 544 566 577 588 600 700 ' +
    '800 833 844 855 866 877 888 900'
  ).split(' '),
);

export const SMS_COUNTRIES = {
  US: (digits: string) => {
    const area = northAmerican(digits);
    return (
      area !== undefined && !CANADA.has(area) && !OTHER_NANP.has(area) && !NANP_SPECIAL.has(area)
    );
  },
  CA: (digits: string) => {
    const area = northAmerican(digits);
    return area !== undefined && CANADA.has(area);
  },
  // Mobiles (07…), not personal numbers (070) or pagers (076).
  GB: (digits: string) => /^447[1-57-9]\d{8}$/.test(digits),
  // Mobiles (083–089).
  IE: (digits: string) => /^3538[3-9]\d{7}$/.test(digits),
  // Mobiles (04…).
  AU: (digits: string) => /^614\d{8}$/.test(digits),
  // Mobiles (015…, 016…, 017…).
  DE: (digits: string) => /^491[5-7]\d{8,9}$/.test(digits),
  // Mobiles (06…, 07…).
  FR: (digits: string) => /^33[67]\d{8}$/.test(digits),
  // Mobiles (06…).
  NL: (digits: string) => /^316\d{8}$/.test(digits),
} satisfies Record<string, (digits: string) => boolean>;

export type SmsCountry = keyof typeof SMS_COUNTRIES;

/** Whether a number may receive a text under the allow-list. */
export function isTextable(digits: string, allowed: readonly SmsCountry[]): boolean {
  return allowed.some((country) => SMS_COUNTRIES[country](digits));
}

/**
 * The block of 10,000 numbers a number belongs to (all but its last four digits):
 * texts to one block are counted together, so pumping a rented range stops
 * however many of its numbers are used.
 */
export function destinationBlock(digits: string): string {
  return digits.slice(0, Math.max(digits.length - 4, 1));
}
