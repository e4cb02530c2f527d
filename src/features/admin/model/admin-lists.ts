/**
 * The admin lists the overview's cards open. Their pages come in later slices
 * of issue 17; until then these paths answer with the not-found page.
 */
export const ADMIN_LISTS = {
  leads: '/admin/leads',
  bookings: '/admin/bookings',
  partners: '/admin/partners',
  users: '/admin/users',
} as const;
