import { Alert } from '@/components/ui/alert';

/**
 * An admin looking at the portal: the database answers 42501 for lack of a
 * partner record. It is the partners' view, not an error.
 */
export function NoPartnerRecord() {
  return (
    <Alert tone="info" title="This is the partners’ view">
      You have no partner record, so there is nothing of yours to show here. Partners see their
      referral link, referrals, commissions and tier in the portal.
    </Alert>
  );
}
