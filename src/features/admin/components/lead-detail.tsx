import { ArrowLeft } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { PortalPage } from '@/components/layout/portal-page';
import { buttonStyles } from '@/components/ui/button-styles';
import { Skeleton } from '@/components/ui/skeleton';
import { useLead, type Lead } from '../api/leads-detail';
import { formatDealValue, formatLeadTime } from '../model/leads';
import { LeadCommissions } from './lead-commissions';
import { LeadForm } from './lead-form';
import { LeadNotes } from './lead-notes';
import { LeadStatusBadge } from './lead-status-badge';

const SOURCES: Record<string, string> = {
  talk_to_sales: 'Talk to sales form',
  admin: 'Added by an admin',
  partner_registration: 'Registered by a partner',
  demo_booking: 'Demo booking',
};

/** A lead's page: what they told us, where it stands in the pipeline, and the notes. */
export function LeadDetail({
  leadId,
  backTo,
  me,
}: {
  leadId: string;
  backTo: string;
  me: { id: string; name: string };
}) {
  const lead = useLead(leadId);
  // Bumped to start the form again from the lead as stored (after a save or "Load the latest").
  const [formRound, setFormRound] = useState(0);
  const back = (
    <Link to={backTo} className={buttonStyles({ variant: 'secondary' })}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to leads
    </Link>
  );

  if (lead.isError) {
    return (
      <PortalPage eyebrow="Admin · Leads" title="Lead" actions={back}>
        <QueryError
          what="this lead"
          onRetry={() => void lead.refetch()}
          isRetrying={lead.isFetching}
        />
      </PortalPage>
    );
  }
  if (lead.data === undefined) {
    return (
      <PortalPage eyebrow="Admin · Leads" title="Lead" actions={back}>
        <div role="status" className="grid gap-4">
          <span className="sr-only">Loading the lead…</span>
          <Skeleton className="h-40 w-full rounded-2xl" />
          <Skeleton className="h-64 w-full rounded-2xl" />
        </div>
      </PortalPage>
    );
  }
  if (lead.data === null) {
    return (
      <PortalPage eyebrow="Admin · Leads" title="Lead not found" actions={back}>
        <p className="text-ink-700">There is no lead at this address (any more).</p>
      </PortalPage>
    );
  }

  const current = lead.data;
  return (
    <PortalPage
      eyebrow="Admin · Leads"
      title={current.company}
      description={
        <p className="flex flex-wrap items-center gap-2">
          <LeadStatusBadge status={current.status} />
          <span>
            Received <time dateTime={current.created_at}>{formatLeadTime(current.created_at)}</time>
          </span>
        </p>
      }
      actions={back}
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:items-start">
        <LeadFacts lead={current} />
        <div className="grid gap-6">
          <LeadForm
            key={`${current.id}:${formRound}`}
            lead={current}
            me={me}
            onReload={async () => {
              await lead.refetch();
              setFormRound((round) => round + 1);
            }}
            onSaved={() => setFormRound((round) => round + 1)}
          />
          {current.partner_id ? <LeadCommissions leadId={current.id} /> : null}
          <LeadNotes leadId={current.id} />
        </div>
      </div>
    </PortalPage>
  );
}

function LeadFacts({ lead }: { lead: Lead }) {
  const facts: [string, ReactNode][] = [
    ['Contact', lead.full_name],
    [
      'Email',
      <a
        key="email"
        href={`mailto:${lead.email}`}
        className="break-all text-azure-700 hover:underline"
      >
        {lead.email}
      </a>,
    ],
    ['Role', lead.job_role ?? '—'],
    ['Team size', lead.team_size],
    ['Monthly calls', lead.monthly_call_volume],
    ['Tools', lead.tools.length > 0 ? lead.tools.join(', ') : '—'],
    ['Partner', lead.partner ? `${lead.partner.company} (${lead.partner.referral_code})` : '—'],
    ['Source', SOURCES[lead.source] ?? lead.source],
    ['Owner', lead.owner_id ? (lead.owner?.full_name ?? 'An admin') : 'Unassigned'],
    ['Deal value', formatDealValue(lead.deal_value_cents, lead.currency)],
  ];
  return (
    <section
      aria-labelledby="lead-facts-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="lead-facts-heading" className="text-lg font-semibold text-ink-900">
        What they told us
      </h2>
      <dl className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-[auto_1fr]">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-sm font-semibold text-ink-600">{term}</dt>
            <dd className="text-sm text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-6 text-sm font-semibold text-ink-600">Message</h3>
      <p className="mt-1 text-sm whitespace-pre-wrap text-ink-900">{lead.message ?? '—'}</p>
    </section>
  );
}
