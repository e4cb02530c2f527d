import { partnerTerms } from '@/config/partner-program';

export const partnerCta = {
  eyebrow: 'Partner program',
  heading: 'Bring Cervana to the CS teams you already advise',
  lead: 'Consultancies, CX agencies and software partners earn commission on the first year of every customer they refer, with a portal that shows each lead and payout.',
  points: [
    partnerTerms.headline,
    'Co-branded demo links',
    'Deal registration and a partner manager',
  ],
  primaryAction: 'Explore the partner program',
  secondaryAction: 'Partner portal sign-in',
};
