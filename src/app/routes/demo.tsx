import { Link, useLocation, useSearchParams } from 'react-router';
import { SchedulerFallbackNotice } from '@/components/demo-booking/scheduler-fallback-notice';
import { PageIntro } from '@/components/layout/page-intro';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import AudioDemoSection from '@/features/marketing/components/audio-demo-section';
import { RecommendedBy } from '@/features/partners/components/recommended-by';
import { DemoScheduler } from '@/features/scheduler/components/demo-scheduler';
import { ManageBooking } from '@/features/scheduler/components/manage-booking';
import type { BookingPrefill } from '@/features/scheduler/model/booking';
import { useHydrated } from '@/lib/use-hydrated';
import { DataProvider } from '../data-provider';

export default function DemoPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  // The prerendered page is the scheduler; a manage link's token is read once in the browser.
  const token = useHydrated() ? params.get('booking') : null;
  const prefill = (location.state as { prefill?: BookingPrefill } | null)?.prefill;
  return (
    <DataProvider>
      <main className="relative">
        {/* A partner's co-branded link: shown in the space above the heading once known. */}
        {token ? null : <RecommendedBy />}
        <PageIntro
          eyebrow="Book a demo"
          title={token ? 'Your Cervana demo' : 'See Cervana answer a real customer call'}
        >
          <p>
            {token
              ? 'Move your demo to another time or cancel it. No account needed.'
              : 'Pick a 30-minute slot that suits you and we will walk you through Cervana on your own use cases.'}
          </p>
        </PageIntro>
        <div className="px-6 pb-20">
          <SchedulerFallbackNotice />
          <div className="mx-auto max-w-6xl">
            {token ? <ManageBooking token={token} /> : <DemoScheduler prefill={prefill} />}
          </div>
          <div className="mx-auto mt-16 flex max-w-3xl flex-col items-center gap-4 text-center">
            <p className="text-ink-600">
              Prefer to write? Email{' '}
              <a
                className="font-semibold text-azure-700 underline"
                href={`mailto:${site.salesEmail}`}
              >
                {site.salesEmail}
              </a>{' '}
              or tell us about your team.
            </p>
            <Link to={paths.talkToSales} className={buttonStyles({ variant: 'secondary' })}>
              Talk to Sales
            </Link>
          </div>
        </div>
        <AudioDemoSection />
      </main>
    </DataProvider>
  );
}
