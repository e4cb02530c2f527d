import { SchedulerFallbackNotice } from '@/components/demo-booking/scheduler-fallback-notice';
import { Link } from 'react-router';
import { PageIntro } from '@/components/layout/page-intro';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { DataProvider } from '../data-provider';

export default function DemoPage() {
  return (
    <DataProvider>
      <main>
        <PageIntro eyebrow="Book a demo" title="See Cervana answer a real customer call">
          <p>
            Pick a 30-minute slot that suits you and we will walk you through Cervana on your own
            use cases.
          </p>
        </PageIntro>
        <div className="px-6 pb-24">
          <SchedulerFallbackNotice />
          <div className="mx-auto flex max-w-3xl flex-col items-center gap-4 text-center">
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
      </main>
    </DataProvider>
  );
}
