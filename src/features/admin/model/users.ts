import { z } from 'zod';

/**
 * The admin users page (issue 17, decision 025): the roles an account can
 * have, how long a ban lasts, the list's filters as the URL holds them, and
 * the shapes the SQL functions answer.
 */

export const USER_ROLES = ['customer', 'partner', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const USER_ROLE_LABELS: Record<UserRole, string> = {
  customer: 'Customer',
  partner: 'Partner',
  admin: 'Admin',
};

/** Ban lengths offered, in hours; `null` is indefinitely. */
export const BAN_DURATIONS: { value: string; hours: number | null; label: string }[] = [
  { value: '1', hours: 1, label: '1 hour' },
  { value: '24', hours: 24, label: '1 day' },
  { value: '168', hours: 168, label: '7 days' },
  { value: '720', hours: 720, label: '30 days' },
  { value: 'forever', hours: null, label: 'Indefinitely' },
];

export const USERS_PAGE_SIZE = 50;
export const MAX_SEARCH_LENGTH = 200;

export interface UserFilters {
  search: string;
  role: UserRole | null;
}

/** The filters in the URL (`q`, `role`); anything unknown is ignored. */
export function parseUserFilters(params: URLSearchParams): UserFilters {
  const role = params.get('role');
  return {
    search: (params.get('q') ?? '').trim().slice(0, MAX_SEARCH_LENGTH),
    role: USER_ROLES.includes(role as UserRole) ? (role as UserRole) : null,
  };
}

const roleSchema = z.enum(USER_ROLES);

export const userRowSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  full_name: z.string().nullable(),
  company: z.string().nullable(),
  role: roleSchema,
  created_at: z.string(),
  last_sign_in_at: z.string().nullable(),
  banned_until: z.string().nullable(),
  invited_at: z.string().nullable(),
  email_confirmed_at: z.string().nullable(),
});
export type UserRow = z.infer<typeof userRowSchema>;

export const userDetailSchema = userRowSchema.extend({
  phone: z.string().nullable(),
  is_self: z.boolean(),
  workspaces: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
  identities: z.array(
    z.object({
      provider: z.string(),
      email: z.string().nullable(),
      created_at: z.string().nullable(),
      last_sign_in_at: z.string().nullable(),
    }),
  ),
  factors: z.array(
    z.object({
      id: z.string(),
      factor_type: z.string(),
      status: z.string(),
      friendly_name: z.string().nullable(),
      created_at: z.string().nullable(),
    }),
  ),
});
export type UserDetail = z.infer<typeof userDetailSchema>;

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatUserTime(value: string | null, none = 'Never'): string {
  return value ? when.format(new Date(value)) : none;
}

/** A ban this far away was made "indefinitely" (the auth service's hundred years). */
const INDEFINITE_AFTER_MS = 50 * 365 * 24 * 3600 * 1000;

/** When an active ban ends ("3 Dec 2026, 14:00" or "Indefinitely"), or null when not banned. */
export function banEnd(bannedUntil: string | null, now = Date.now()): string | null {
  if (!bannedUntil) return null;
  const until = new Date(bannedUntil).getTime();
  if (!(until > now)) return null;
  if (until - now > INDEFINITE_AFTER_MS) return 'Indefinitely';
  return when.format(new Date(until));
}

/** "Banned until 3 Dec 2026, 14:00", "Banned indefinitely", or null when not banned. */
export function banDescription(bannedUntil: string | null, now = Date.now()): string | null {
  const end = banEnd(bannedUntil, now);
  if (end === null) return null;
  return end === 'Indefinitely' ? 'Banned indefinitely' : `Banned until ${end}`;
}

/** The name to show for an account: the name, else the email, else its id. */
export function userLabel(user: Pick<UserRow, 'full_name' | 'email' | 'id'>): string {
  return user.full_name ?? user.email ?? user.id;
}

const FACTOR_TYPES: Record<string, string> = {
  totp: 'Authenticator app',
  phone: 'Text message',
  webauthn: 'Security key',
};

export function factorTypeLabel(type: string): string {
  return FACTOR_TYPES[type] ?? type;
}

const PROVIDERS: Record<string, string> = {
  email: 'Email and password',
  phone: 'Phone',
  anonymous: 'Anonymous',
};

export function providerLabel(provider: string): string {
  return PROVIDERS[provider] ?? provider.charAt(0).toUpperCase() + provider.slice(1);
}

/** The invite form, checked in the browser; the database has the last word. */
export const inviteSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Please enter the email address of the person to invite.')
    .max(254, 'Please enter a valid email address, like jane@company.com.')
    .email('Please enter a valid email address, like jane@company.com.'),
});
export type InviteValues = z.infer<typeof inviteSchema>;
