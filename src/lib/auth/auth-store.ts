import type { AuthChangeEvent, Session, SupabaseClient, User } from '@supabase/supabase-js';
import { getSupabase } from '@/lib/supabase';

/**
 * The app's one view of who is signed in, fed by the official client's
 * onAuthStateChange. It starts on demand: pages that need it start it, and the
 * header only when a session is stored, so anonymous visitors of the marketing
 * pages never load the client library.
 */

export interface AuthState {
  /** True until the first session check or the first auth event, whichever comes first. */
  loading: boolean;
  session: Session | null;
  user: User | null;
  /** The latest auth event, or null before the first. */
  lastEvent: AuthChangeEvent | null;
  /** The visitor arrived through a password-recovery link or code and must set a new password. */
  isRecoveringPassword: boolean;
  /** The client could not start (the backend is unreachable or misconfigured). */
  error: Error | null;
}

const initialState: AuthState = {
  loading: true,
  session: null,
  user: null,
  lastEvent: null,
  isRecoveringPassword: false,
  error: null,
};

let state: AuthState = initialState;
const listeners = new Set<() => void>();
let starting: Promise<SupabaseClient> | undefined;

function update(next: Partial<AuthState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function onAuthEvent(event: AuthChangeEvent, session: Session | null): void {
  const next: Partial<AuthState> = {
    loading: false,
    error: null,
    lastEvent: event,
    session,
    user: session?.user ?? null,
  };
  switch (event) {
    case 'PASSWORD_RECOVERY':
      next.isRecoveringPassword = true;
      break;
    case 'SIGNED_OUT':
      next.isRecoveringPassword = false;
      // Nothing of the previous user may stay in memory for the next one. The data
      // library loads with the data pages, so it is imported, not bundled, here.
      void import('@/lib/query-client').then(({ clearQueryCache }) => clearQueryCache());
      break;
    // INITIAL_SESSION, SIGNED_IN, TOKEN_REFRESHED, USER_UPDATED and
    // MFA_CHALLENGE_VERIFIED carry the current session (and user) as they are.
  }
  update(next);
}

/** After the page's first work: when the browser is idle, or within two seconds. */
function whenIdle(run: () => void): void {
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
    window.requestIdleCallback(run, { timeout: 2000 });
  } else {
    setTimeout(run, 0);
  }
}

/**
 * The URL fragment as it was when the client was first started. The client reads
 * an emailed link's session (or error) from the fragment and then removes it, and
 * on a signed-in page it starts while the page's code loads, before the app has
 * rendered: `AuthLinkHandler` reads the link's type from here.
 */
let fragmentAtStart: string | undefined;

/** Starts the client (once) and resolves with it; safe to call from anywhere. */
export function startAuth(): Promise<SupabaseClient> {
  if (typeof window !== 'undefined') fragmentAtStart ??= window.location.hash;
  starting ??= getSupabase()
    .then(async (supabase) => {
      // The callback runs inside the client's lock: it must not await client calls.
      supabase.auth.onAuthStateChange(onAuthEvent);
      const { data } = await supabase.auth.getSession();
      if (state.loading) {
        update({ loading: false, session: data.session, user: data.session?.user ?? null });
      }
      // The stored session may have been ended elsewhere ("sign out of other devices" or
      // everywhere) while its access token still looks valid. Asking the server finds out:
      // the client then removes it and reports SIGNED_OUT. A network error keeps it.
      // Not at once: the check holds the client's auth lock for a round trip, and every
      // data request waits for that lock to read its token, so it would come before the
      // page's first reads (decision 034). Those reads are answered PGRST303 if the
      // session has ended, which makes the data provider ask at once anyway.
      if (data.session) whenIdle(() => void supabase.auth.getUser().catch(() => undefined));
      return supabase;
    })
    .catch((error: unknown) => {
      starting = undefined; // the next caller tries again
      update({ loading: false, error: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    });
  return starting;
}

export function getAuthState(): AuthState {
  return state;
}

export function subscribeToAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What the server render and hydration see: nothing known yet. */
export function getServerAuthState(): AuthState {
  return initialState;
}

/** An invited user arrives signed in without a password: ask for one as after a recovery link. */
export function beginPasswordSetup(): void {
  update({ isRecoveringPassword: true });
}

/** Clears the recovery flag once the new password is set. */
export function finishPasswordRecovery(): void {
  update({ isRecoveringPassword: false });
}

/** Whether the official client has a session stored in this browser (any backend host). */
export function hasStoredSession(): boolean {
  try {
    for (let index = 0; index < localStorage.length; index += 1) {
      if (/^sb-.+-auth-token$/.test(localStorage.key(index) ?? '')) return true;
    }
  } catch {
    // Storage blocked: nothing stored.
  }
  return false;
}

/** Whether this URL is the landing of an emailed auth link (session or error in the fragment). */
export function hasAuthResultInUrl(hash = window.location.hash): boolean {
  return /(^|[#&])(access_token|error_description|error_code)=/.test(hash);
}

/**
 * The fragment the page was opened with, even when the client has already taken
 * the session out of it: as it was when the client started, or as it is now.
 */
export function openingFragment(): string {
  return fragmentAtStart ?? window.location.hash;
}
