import { useQuery } from '@tanstack/react-query';
import { HandCoins } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { pendingCommissionCountQuery } from '../api/commissions';

/** On the overview, only when some wait: partner commissions to approve or decline. */
export function PendingCommissionsNotice() {
  const pending = useQuery(pendingCommissionCountQuery());
  if (!pending.data) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-azure-100 bg-azure-50 px-4 py-3 text-sm text-ink-800">
      <HandCoins aria-hidden="true" className="size-4 shrink-0 text-azure-700" />
      <span>
        {pending.data === 1
          ? '1 partner commission waiting for approval.'
          : `${pending.data.toLocaleString('en-US')} partner commissions waiting for approval.`}
      </span>
      <Link to={paths.adminCommissions} className="font-semibold text-azure-700 underline">
        Review commissions
      </Link>
    </p>
  );
}
