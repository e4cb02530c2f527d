import { z } from 'zod';

export const ROLES = ['owner', 'admin', 'member'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'Manages everything, including other owners',
  admin: 'Manages the team, agent and numbers',
  member: 'Sees calls and recordings',
};

/** "an admin", "a member", "an owner". */
export function roleWithArticle(role: Role): string {
  return role === 'member' ? 'a member' : `an ${role}`;
}

export const teamMemberSchema = z.object({
  user_id: z.string(),
  full_name: z.string().nullable(),
  email: z.string().nullable(),
  role: roleSchema,
  joined_at: z.string(),
  is_me: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const pendingInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  created_at: z.string(),
  expires_at: z.string(),
  last_sent_at: z.string(),
  inviter: z.object({ full_name: z.string().nullable() }).nullable(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;

export const myInvitationSchema = z.object({
  id: z.string(),
  workspace_id: z.string(),
  workspace_name: z.string(),
  role: roleSchema,
  invited_by_name: z.string().nullable(),
  expires_at: z.string(),
});
export type MyInvitation = z.infer<typeof myInvitationSchema>;

/** Whether someone with `viewer`'s role may change or remove a member with `target`'s. */
export function canManage(viewer: Role, target: Role): boolean {
  return viewer === 'owner' || (viewer === 'admin' && target !== 'owner');
}

/** The roles `viewer` may give (invite as, or change to). */
export function assignableRoles(viewer: Role): Role[] {
  if (viewer === 'owner') return [...ROLES];
  if (viewer === 'admin') return ['admin', 'member'];
  return [];
}

export const inviteSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Please enter the email address of the person to invite.')
    .max(254, 'Please enter a valid email address, like jane@company.com.')
    .email('Please enter a valid email address, like jane@company.com.'),
  role: z.enum(ROLES, { message: 'Please choose a role from the list.' }),
});
export type InviteValues = z.infer<typeof inviteSchema>;

/** An invitation's expiry as people read it: "in 6 days", "expired". */
export function isExpired(expiresAt: string, now = Date.now()): boolean {
  return Date.parse(expiresAt) <= now;
}

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

/** "12 Mar 2026" in the reader's time zone. */
export function formatDay(iso: string): string {
  return dateFormat.format(new Date(iso));
}
