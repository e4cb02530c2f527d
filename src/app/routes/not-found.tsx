import { Link } from 'react-router';
import { PageIntro } from '@/components/layout/page-intro';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';

export default function NotFoundPage() {
  return (
    <main>
      <PageIntro eyebrow="404" title="We could not find that page">
        <p>The link may be old or mistyped. These will get you back on track:</p>
      </PageIntro>
      <div className="mx-auto flex max-w-3xl flex-wrap justify-center gap-3 px-6 pb-24">
        <Link to={paths.home} className={buttonStyles()}>
          Go to the home page
        </Link>
        <Link to={paths.demo} className={buttonStyles({ variant: 'secondary' })}>
          Book a demo
        </Link>
        <Link to={paths.talkToSales} className={buttonStyles({ variant: 'secondary' })}>
          Talk to Sales
        </Link>
      </div>
    </main>
  );
}
