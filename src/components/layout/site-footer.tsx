import { Mail, Phone } from 'lucide-react';
import { Container } from '@/components/ui/container';
import { footerColumns, site } from '@/config/site';
import { Logo } from './logo';
import { NavItem } from './section-link';

/** The last section of every page; loaded on demand like the landing sections. */
export default function SiteFooter() {
  return (
    <footer className="bg-ink-900 text-ink-100">
      <Container className="grid gap-12 py-16 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,2fr)]">
        <div>
          <Logo tone="dark" />
          <p className="mt-4 max-w-sm">
            {site.tagline}: every call answered, every issue handled, every hand-off with context.
          </p>
          <ul className="mt-6 space-y-2 text-sm">
            <li>
              <a
                href={`mailto:${site.contactEmail}`}
                className="inline-flex items-center gap-2 hover:text-white"
              >
                <Mail aria-hidden="true" className="size-4" />
                {site.contactEmail}
              </a>
            </li>
            <li>
              <a href={site.phoneHref} className="inline-flex items-center gap-2 hover:text-white">
                <Phone aria-hidden="true" className="size-4" />
                {site.phone}
              </a>
            </li>
          </ul>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-8 sm:grid-cols-3">
          {footerColumns.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold text-white">{column.title}</h2>
              <ul className="mt-4 space-y-3 text-sm">
                {column.links.map((link) => (
                  <li key={link.to}>
                    <NavItem to={link.to} className="hover:text-white hover:underline">
                      {link.label}
                    </NavItem>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </Container>
      <div className="border-t border-white/10">
        <Container className="flex flex-col gap-2 py-6 text-sm sm:flex-row sm:justify-between">
          <p>
            © 2026 {site.legalName} · {site.address}
          </p>
          <p>Built for customer success teams.</p>
        </Container>
      </div>
    </footer>
  );
}
