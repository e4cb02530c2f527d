import { useQuery } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { failedEmailCountQuery } from '../api/email-log';

/** On the overview, only when something needs a look: emails that failed in the last 7 days. */
export function FailedEmailsNotice() {
  const failed = useQuery(failedEmailCountQuery());
  if (!failed.data) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-danger-200 bg-danger-50 px-4 py-3 text-sm text-danger-800">
      <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
      <span>
        {failed.data === 1
          ? '1 email failed to send in the last 7 days.'
          : `${failed.data.toLocaleString()} emails failed to send in the last 7 days.`}
      </span>
      <Link to={`${paths.adminEmails}?state=failed`} className="font-semibold underline">
        View failed emails
      </Link>
    </p>
  );
}
