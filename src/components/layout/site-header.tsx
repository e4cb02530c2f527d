import { Menu, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { DemoBookingButton } from '@/components/demo-booking/demo-booking-button';
import { buttonStyles } from '@/components/ui/button-styles';
import { Container } from '@/components/ui/container';
import { paths } from '@/config/paths';
import { mainNavigation } from '@/config/site';
import { HeaderAccount } from './header-account';
import { Logo } from './logo';
import { NavItem } from './section-link';

const MENU_ID = 'site-menu';
const desktopLink =
  'rounded-lg px-3 py-2 text-sm font-medium text-ink-700 transition-colors hover:bg-sand-100 hover:text-ink-900';
const menuLink = 'block rounded-lg px-3 py-3 text-base font-medium text-ink-800 hover:bg-sand-100';

/** The bar fixed at the top of every page; on small screens its items move into a menu. */
export function SiteHeader() {
  // The menu is open for the page it was opened on: any navigation closes it.
  const { key } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const isMenuOpen = openOn === key;
  const setIsMenuOpen = (open: boolean) => setOpenOn(open ? key : null);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = () => setIsMenuOpen(false);

  useEffect(() => {
    if (!isMenuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isMenuOpen]);

  return (
    <header className="fixed inset-x-0 top-0 z-50 border-b border-sand-200 bg-white">
      <Container className="flex h-16 items-center justify-between gap-4">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-0.5 lg:flex">
          {mainNavigation.map((item) => (
            <NavItem key={item.to} to={item.to} className={desktopLink}>
              {item.label}
            </NavItem>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <HeaderAccount />
          <div className="hidden items-center gap-2 lg:flex">
            <Link to={paths.talkToSales} className={buttonStyles({ variant: 'secondary' })}>
              Talk to Sales
            </Link>
            <DemoBookingButton />
          </div>
          <button
            ref={toggle}
            type="button"
            className="inline-flex size-11 items-center justify-center rounded-lg text-ink-900 hover:bg-sand-100 lg:hidden"
            aria-expanded={isMenuOpen}
            aria-controls={MENU_ID}
            onClick={() => setIsMenuOpen(!isMenuOpen)}
          >
            {isMenuOpen ? (
              <X aria-hidden="true" className="size-6" />
            ) : (
              <Menu aria-hidden="true" className="size-6" />
            )}
            <span className="sr-only">{isMenuOpen ? 'Close menu' : 'Open menu'}</span>
          </button>
        </div>
      </Container>
      <div
        id={MENU_ID}
        hidden={!isMenuOpen}
        className="border-t border-sand-200 bg-white shadow-lg lg:hidden"
      >
        <Container className="py-4">
          <nav aria-label="Menu">
            <ul className="flex flex-col">
              {mainNavigation.map((item) => (
                <li key={item.to}>
                  <NavItem to={item.to} className={menuLink} onChoose={close}>
                    {item.label}
                  </NavItem>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-4 grid gap-3 border-t border-sand-200 pt-4 sm:grid-cols-2">
            <Link
              to={paths.talkToSales}
              onClick={close}
              className={buttonStyles({ variant: 'secondary', size: 'lg' })}
            >
              Talk to Sales
            </Link>
            <DemoBookingButton size="lg" onChoose={close} />
          </div>
        </Container>
      </div>
    </header>
  );
}
