import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { PortalPage } from '@/components/layout/portal-page';
import { useAuth } from '@/lib/auth/use-auth';
import { ConnectedAppsSection } from './connected-apps-section';
import { EmailSection } from './email-section';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { SecurityKeysSection } from './security-keys-section';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';

/** GoTrue reports the first confirmed leg of an email change as `#message=` on the return link. */
function useLinkMessage(): string | null {
  const [message] = useState(() => {
    const text = new URLSearchParams(window.location.hash.slice(1)).get('message');
    if (!text) return null;
    return /other email/i.test(text)
      ? 'One address is confirmed. Open the link we sent to the other one to finish the change.'
      : text;
  });
  useEffect(() => {
    if (!message) return;
    window.history.replaceState(
      window.history.state,
      '',
      window.location.pathname + window.location.search,
    );
  }, [message]);
  return message;
}

export function AccountSettings() {
  const { user } = useAuth();
  const linkMessage = useLinkMessage();
  if (!user) return null;
  return (
    <PortalPage
      eyebrow="Account"
      title="Account settings"
      description={<p>Your profile, how you sign in, and where.</p>}
    >
      {linkMessage ? (
        <Alert tone="info" className="mb-6 max-w-3xl">
          {linkMessage}
        </Alert>
      ) : null}
      <div className="grid max-w-3xl gap-6">
        <ProfileSection user={user} />
        <EmailSection user={user} />
        <PasswordSection />
        <PasskeysSection />
        <TwoFactorSection />
        <SecurityKeysSection />
        <SessionsSection />
        <ConnectedAppsSection />
      </div>
    </PortalPage>
  );
}
