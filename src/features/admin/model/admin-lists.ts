/**
 * The admin lists the overview's cards open.
 */
export const ADMIN_LISTS = {
  leads: '/admin/leads',
  bookings: '/admin/bookings',
  partners: '/admin/partners',
  users: '/admin/users',
} as const;
