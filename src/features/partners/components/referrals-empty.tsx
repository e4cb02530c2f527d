import { useQuery } from '@tanstack/react-query';
import { REFERRAL_DAYS } from '@/lib/referral';
import { fetchMyPartnerRecord } from '../api/applications';
import { CopyField } from './copy-field';
import { partnerLinks } from './partner-links';

/** No referrals yet: how they arrive, with the link to share at hand. */
export function ReferralsEmpty({ userId }: { userId: string }) {
  const partner = useQuery({
    queryKey: ['my-partner', userId],
    queryFn: () => fetchMyPartnerRecord(userId),
  });
  return (
    <div className="grid gap-4 rounded-2xl border border-dashed border-sand-200 bg-white p-5 sm:p-6">
      <h2 className="text-lg font-semibold text-ink-900">No referrals yet</h2>
      <p className="max-w-2xl text-ink-700">
        A referral appears here when someone who followed your link asks our sales team to get in
        touch or books a demo within {REFERRAL_DAYS} days of their visit. You see its status as our
        team works it, and its commission once it becomes a customer.
      </p>
      {partner.data ? (
        <CopyField
          label="Your referral link"
          value={partnerLinks(partner.data.referral_code).referral}
          copyLabel="referral link"
        />
      ) : null}
    </div>
  );
}
