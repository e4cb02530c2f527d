import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { buttonStyles } from '@/components/ui/button-styles';

/** The bar fixed at the top of every public page. */
export function SiteHeader() {
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-sand-200/80 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-6 px-6">
        <Link to={paths.home} className="flex items-center gap-2 text-lg font-bold text-ink-900">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          {site.name}
        </Link>
        <nav aria-label="Main" className="flex items-center gap-2">
          <Link
            to={paths.partnerPortal}
            className={buttonStyles({ variant: 'ghost', className: 'hidden sm:inline-flex' })}
          >
            Partner Portal
          </Link>
          <Link to={paths.talkToSales} className={buttonStyles({ variant: 'primary' })}>
            Talk to Sales
          </Link>
        </nav>
      </div>
    </header>
  );
}
