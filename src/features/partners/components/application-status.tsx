import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import { APPLICATION_QUERY_KEY, fetchMyApplication } from '../api/applications';

const dateLabel = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/** For a signed-in non-partner: their application's status, or the way to apply. */
export function ApplicationStatus() {
  const application = useQuery({
    queryKey: APPLICATION_QUERY_KEY,
    queryFn: fetchMyApplication,
  });
  if (application.isPending) {
    return (
      <p role="status" className="text-ink-600">
        Loading your application...
      </p>
    );
  }
  if (application.error) {
    return <Alert tone="error">{rpcErrorMessage(application.error)}</Alert>;
  }
  const current = application.data;
  if (!current) {
    return (
      <div className="grid justify-items-start gap-4">
        <p className="text-ink-700">You have not applied yet. It takes two minutes.</p>
        <Link to={`${paths.partner}#apply`} className={buttonStyles({ size: 'lg' })}>
          See the program and apply
        </Link>
      </div>
    );
  }
  const labels = {
    unconfirmed: { tone: 'info', title: 'Please confirm your application' },
    pending: { tone: 'info', title: 'Your application is being reviewed' },
    approved: { tone: 'success', title: 'Your application is approved' },
    rejected: { tone: 'error', title: 'Your application was not accepted' },
  } as const;
  const label = labels[current.status];
  return (
    <section
      aria-labelledby="application-status"
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-6"
    >
      <h2 id="application-status" className="text-lg font-semibold text-ink-900">
        Your partner application
      </h2>
      <Alert tone={label.tone} title={label.title}>
        {current.status === 'unconfirmed'
          ? // Not the company: until confirmed, whoever typed this address may not be its owner.
            `An application was made with your email address on ${dateLabel(current.created_at)}. If it was you, follow the link we emailed you within 3 days to confirm it; we review applications once they are confirmed. If not, ignore that email and the application lapses.`
          : current.status === 'pending'
            ? `You applied for ${current.company} on ${dateLabel(current.created_at)}. We reply within five business days.`
            : current.status === 'approved'
              ? 'Sign out and in again to open your partner portal.'
              : (current.decision_reason ?? 'We have emailed you the reasons.')}
      </Alert>
    </section>
  );
}
