import { PortalPage } from '@/components/layout/portal-page';

export default function Page() {
  return <PortalPage eyebrow="Admin" title="admin-audit" />;
}
