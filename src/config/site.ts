import { paths } from './paths';

export const site = {
  name: 'Cervana',
  legalName: 'Cervana, Inc.',
  tagline: 'The AI phone agent for customer success teams',
  contactEmail: 'hello@cervana.ai',
  salesEmail: 'sales@cervana.ai',
  phone: '+1 (415) 555-0142',
  phoneHref: 'tel:+14155550142',
  address: '548 Market Street, Suite 91720, San Francisco, CA 94104',
} as const;

/** A link to a section of the landing page (`#id`) or to a page (`/path`). */
export interface NavLink {
  label: string;
  to: string;
}

export const sectionIds = {
  howItWorks: 'how-it-works',
  industries: 'industries',
  audioDemo: 'audio-demo',
  whyCervana: 'why-cervana',
} as const;

/** The navigation bar's links, in the spec's order (the two buttons follow them). */
export const mainNavigation: NavLink[] = [
  { label: 'How It Works', to: `#${sectionIds.howItWorks}` },
  { label: 'Industries', to: `#${sectionIds.industries}` },
  { label: 'Why Cervana', to: `#${sectionIds.whyCervana}` },
  { label: 'Partner Portal', to: paths.partnerPortal },
];

export interface FooterColumn {
  title: string;
  links: NavLink[];
}

export const footerColumns: FooterColumn[] = [
  {
    title: 'Product',
    links: [
      { label: 'How it works', to: `#${sectionIds.howItWorks}` },
      { label: 'Industries', to: `#${sectionIds.industries}` },
      { label: 'Hear a call', to: `#${sectionIds.audioDemo}` },
      { label: 'Why Cervana', to: `#${sectionIds.whyCervana}` },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'Book a demo', to: paths.demo },
      { label: 'Talk to Sales', to: paths.talkToSales },
      { label: 'Partner program', to: paths.partner },
      { label: 'Partner portal', to: paths.partnerPortal },
    ],
  },
  {
    title: 'Account',
    links: [
      { label: 'Sign in', to: paths.auth },
      { label: 'Privacy policy', to: paths.privacyPolicy },
    ],
  },
];
