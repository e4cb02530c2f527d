/**
 * The admin lists the overview's cards open. Leads and users have their pages;
 * bookings and partners come in later slices of issue 17, and until then their
 * paths answer with the not-found page.
 */
export const ADMIN_LISTS = {
  leads: '/admin/leads',
  bookings: '/admin/bookings',
  partners: '/admin/partners',
  users: '/admin/users',
} as const;
