import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { authHref } from '@/features/auth/model/auth-href';
import {
  beginPasswordSetup,
  getAuthState,
  hasAuthResultInUrl,
  openingFragment,
  startAuth,
} from '@/lib/auth/auth-store';
import { takeRememberedNextPath } from '@/lib/auth/remembered-next';
import { homePathFor, roleOf } from '@/lib/auth/roles';

/**
 * Emailed links (sign-up confirmation, invitations, magic links whose target
 * was not allowed) come back to the site with the session, or an error, in the
 * URL fragment. The official client reads the session; this sends the visitor
 * on: to where they were going, else their home page, or to /auth with a
 * notice when the link was used up or expired.
 */
export function AuthLinkHandler() {
  const navigate = useNavigate();
  const { pathname } = useLocation();

  useEffect(() => {
    // The client may have read the link's session and cleared the URL already (on a
    // signed-in page it starts while the page's code loads): what the page was opened with.
    const hash = openingFragment();
    if (!hasAuthResultInUrl(hash)) return;
    const params = new URLSearchParams(hash.slice(1));
    if (!params.get('access_token')) {
      // The client leaves an error fragment in place; the notice says it in words.
      window.history.replaceState(
        window.history.state,
        '',
        window.location.pathname + window.location.search,
      );
      void navigate(`${paths.auth}?notice=link-invalid`, { replace: true });
      return;
    }
    const type = params.get('type');
    void startAuth().then(
      () => {
        const { user } = getAuthState();
        if (!user) return;
        if (type === 'invite') beginPasswordSetup();
        // Pages that need a session handle it themselves; the site root forwards.
        if (type === 'invite' || type === 'recovery') {
          // An invitation to a workspace leads to its page (/dashboard/team?invitation=…):
          // the password step sends the invited person on there.
          const next = pathname === paths.home ? null : pathname + window.location.search;
          void navigate(authHref('reset', next), { replace: true });
        } else if (pathname === paths.home) {
          void navigate(takeRememberedNextPath() ?? homePathFor(roleOf(user)), { replace: true });
        }
      },
      () => undefined,
    );
    // Only the URL the app was opened with can carry an auth result.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return null;
}
