import { CalendarClock, Headphones, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { PortalPage } from '@/components/layout/portal-page';
import { paths } from '@/config/paths';
import { sectionIds } from '@/config/site';
import { featuredDemoCall } from '@/features/marketing/content/audio-demo';
import { describeDuration } from '@/features/marketing/model/duration';
import { profileOf } from '@/lib/auth/user-profile';
import { useAuth } from '@/lib/auth/use-auth';

const NEXT_STEPS = [
  {
    icon: Headphones,
    title: 'Hear Cervana on a sample call',
    // The call the audio demo opens with, as long as its recording is.
    text: `${featuredDemoCall.title}: ${describeDuration(featuredDemoCall.durationSeconds)}, with the transcript.`,
    to: `${paths.home}#${sectionIds.audioDemo}`,
    action: 'Listen',
  },
  {
    icon: CalendarClock,
    title: 'Book your onboarding call',
    text: 'We connect your number and tune the agent to your playbooks.',
    to: paths.demo,
    action: 'Pick a time',
  },
  {
    icon: ShieldCheck,
    title: 'Turn on two-factor authentication',
    text: 'Call recordings deserve more than a password.',
    to: `${paths.accountSettings}#two-factor`,
    action: 'Set it up',
  },
];

export default function DashboardPage() {
  const { fullName, company } = profileOf(useAuth().user);
  return (
    <PortalPage
      eyebrow="Dashboard"
      title="Your phone agent at a glance"
      description={
        <p>
          Welcome{fullName ? `, ${fullName}` : ''}.{' '}
          {company ? (
            <>
              This is the <strong className="font-semibold text-ink-900">{company}</strong>{' '}
              workspace.
            </>
          ) : null}
        </p>
      }
    >
      <section
        aria-labelledby="calls-heading"
        className="rounded-2xl border border-sand-200 bg-white p-6"
      >
        <h2 id="calls-heading" className="text-lg font-semibold text-ink-900">
          Calls
        </h2>
        <p className="mt-2 text-ink-600">
          Once your number is connected, every call Cervana answers shows up here: what was asked,
          how it was resolved, and what was handed to your team.
        </p>
      </section>
      <section aria-labelledby="next-steps-heading" className="mt-8">
        <h2 id="next-steps-heading" className="text-lg font-semibold text-ink-900">
          Next steps
        </h2>
        <ul className="mt-4 grid gap-4 md:grid-cols-3">
          {NEXT_STEPS.map((step) => (
            <li
              key={step.title}
              className="flex flex-col rounded-2xl border border-sand-200 bg-white p-5"
            >
              <step.icon aria-hidden="true" className="size-6 text-azure-700" />
              <h3 className="mt-3 font-semibold text-ink-900">{step.title}</h3>
              <p className="mt-1 flex-1 text-sm text-ink-600">{step.text}</p>
              <Link
                to={step.to}
                className="mt-4 text-sm font-semibold text-azure-700 hover:underline"
              >
                {step.action}
                <span className="sr-only">: {step.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </PortalPage>
  );
}
