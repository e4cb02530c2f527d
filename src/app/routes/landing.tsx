import { Link } from 'react-router';
import { PageIntro } from '@/components/layout/page-intro';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';

export function LandingPage() {
  return (
    <main>
      <PageIntro eyebrow="Cervana" title="The AI phone system for customer success">
        <p>
          Cervana answers every customer call, resolves the issue, and hands off to your CSMs with
          full context when it cannot.
        </p>
      </PageIntro>
      <div className="flex flex-wrap justify-center gap-3 px-6 pb-24">
        <Link to={paths.demo} className={buttonStyles({ size: 'lg' })}>
          Book a 15-min demo
        </Link>
        <Link to={paths.talkToSales} className={buttonStyles({ size: 'lg', variant: 'secondary' })}>
          Talk to Sales
        </Link>
      </div>
    </main>
  );
}
