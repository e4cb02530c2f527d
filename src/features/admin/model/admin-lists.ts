/**
 * The admin lists the overview's cards open. Leads and bookings have their
 * pages; partners and users come in other slices of issue 17 (until then
 * those paths answer with the not-found page).
 */
export const ADMIN_LISTS = {
  leads: '/admin/leads',
  bookings: '/admin/bookings',
  partners: '/admin/partners',
  users: '/admin/users',
} as const;
