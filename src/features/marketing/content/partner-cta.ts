export const partnerCta = {
  eyebrow: 'Partner program',
  heading: 'Bring Cervana to the CS teams you already advise',
  lead: 'Consultancies, CX agencies and software partners earn recurring commission on every customer they refer, with a portal that shows each lead and payout.',
  points: [
    'Up to 20% recurring commission',
    'Co-branded demo links',
    'Deal registration and a partner manager',
  ],
  primaryAction: 'Explore the partner program',
  secondaryAction: 'Partner portal sign-in',
};
