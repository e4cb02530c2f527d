/**
 * Referral attribution: a partner's link carries `?ref=CODE` on any page. The
 * code is kept for 90 days in this site's own storage (no cookie, no third
 * party), and the forms and sign-up send it along, so the lead, booking,
 * application or account that follows is credited to that partner. The visit
 * itself is counted per partner and day, with nothing about the visitor.
 */

const STORAGE_KEY = 'cervana.referral';
export const REFERRAL_DAYS = 90;
const CODE = /^[A-Za-z0-9]{4,24}$/;

interface StoredReferral {
  code: string;
  savedAt: number;
}

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // storage blocked by the browser's settings
  }
}

/** The remembered partner code, while it is younger than 90 days. */
export function referralCode(now = Date.now()): string | undefined {
  const store = storage();
  const raw = store?.getItem(STORAGE_KEY);
  if (!raw) return undefined;
  try {
    const stored = JSON.parse(raw) as Partial<StoredReferral>;
    if (
      typeof stored.code === 'string' &&
      CODE.test(stored.code) &&
      typeof stored.savedAt === 'number' &&
      now - stored.savedAt < REFERRAL_DAYS * 24 * 60 * 60 * 1000
    ) {
      return stored.code;
    }
  } catch {
    // unreadable: forget it below
  }
  store?.removeItem(STORAGE_KEY);
  return undefined;
}

/**
 * Remembers `?ref=` from a page's query string (the latest link wins, and its
 * 90 days start again). Returns the code when there was a valid one.
 */
export function rememberReferral(search: string, now = Date.now()): string | undefined {
  const code = new URLSearchParams(search).get('ref')?.trim().toUpperCase();
  if (!code || !CODE.test(code)) return undefined;
  storage()?.setItem(STORAGE_KEY, JSON.stringify({ code, savedAt: now } satisfies StoredReferral));
  return code;
}
