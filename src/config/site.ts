import { paths } from './paths';

export const site = {
  name: 'Cervana',
  tagline: 'The AI phone agent for customer success teams',
  contactEmail: 'hello@cervana.ai',
} as const;

export interface NavLink {
  label: string;
  to: string;
}

export const footerLinks: NavLink[] = [
  { label: 'Partner program', to: paths.partner },
  { label: 'Book a demo', to: paths.demo },
  { label: 'Talk to Sales', to: paths.talkToSales },
  { label: 'Privacy policy', to: paths.privacyPolicy },
  { label: 'Sign in', to: paths.auth },
];
