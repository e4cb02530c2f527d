import { useQuery } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import { fetchMyPartnerRecord } from '../api/applications';
import { formatRate } from '@/config/partner-program';

/** The partner's referral link and code, and how many visits it has brought. */
export function ReferralLink({ userId }: { userId: string }) {
  const partner = useQuery({
    queryKey: ['my-partner', userId],
    queryFn: () => fetchMyPartnerRecord(userId),
  });
  if (partner.isPending)
    return (
      <p role="status" className="text-ink-600">
        Loading your referral link...
      </p>
    );
  if (partner.error) return <Alert tone="error">{rpcErrorMessage(partner.error)}</Alert>;
  if (!partner.data) return <p className="text-ink-700">Your partner record is being set up.</p>;
  const link = `${window.location.origin}/?ref=${partner.data.referral_code}`;
  return (
    <dl className="grid gap-4 sm:grid-cols-3">
      <div className="sm:col-span-3">
        <dt className="text-sm text-ink-600">Your referral link</dt>
        <dd className="mt-1 font-mono text-ink-900 break-all">{link}</dd>
      </div>
      <div>
        <dt className="text-sm text-ink-600">Code</dt>
        <dd className="mt-1 font-semibold text-ink-900">{partner.data.referral_code}</dd>
      </div>
      <div>
        <dt className="text-sm text-ink-600">Visits through your link</dt>
        <dd className="mt-1 font-semibold text-ink-900 tabular-nums">{partner.data.clicks}</dd>
      </div>
      <div>
        <dt className="text-sm text-ink-600">Tier</dt>
        <dd className="mt-1 font-semibold text-ink-900 capitalize">
          {partner.data.tier} ({formatRate(partner.data.commission_rate)})
        </dd>
      </div>
    </dl>
  );
}
