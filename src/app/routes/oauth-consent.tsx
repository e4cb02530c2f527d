import { useSearchParams } from 'react-router';
import { ConsentPage } from '@/features/oauth/components/consent-page';
import { DataProvider } from '../data-provider';
import { RequireAuth } from '../require-auth';

/** The OAuth server's consent page: signed in first (RequireAuth sends visitors to /auth and back). */
export default function OAuthConsentPage() {
  const [params] = useSearchParams();
  return (
    <RequireAuth>
      <DataProvider>
        <ConsentPage authorizationId={params.get('authorization_id')} />
      </DataProvider>
    </RequireAuth>
  );
}
