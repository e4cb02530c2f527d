import { Outlet } from 'react-router';
import { ScrollManager } from '@/components/layout/scroll-manager';
import { AuthLinkHandler } from './auth-link-handler';
import { DocumentMeta } from './document-meta';
import { ReferralTracker } from './referral-tracker';

export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-[60] rounded bg-white px-4 py-2 font-semibold text-ink-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <Outlet />
      <DocumentMeta />
      <ScrollManager />
      <AuthLinkHandler />
      <ReferralTracker />
    </div>
  );
}
