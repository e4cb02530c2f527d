import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { signedInAs } from '@/lib/auth/signed-in-as';
import { getQueryClient } from '@/lib/query-client';
import { getSupabase } from '@/lib/supabase';
import {
  USERS_PAGE_SIZE,
  parseUserFilters,
  userDetailSchema,
  userRowSchema,
  type UserDetail,
  type UserFilters,
  type UserRole,
  type UserRow,
} from '../model/users';

/**
 * The admin users page's data: SQL functions for reading and changing
 * accounts (admins only, decided in the database), and the admin-users edge
 * function for what the auth service sends (invitations, password resets).
 */

export const usersKeys = {
  all: ['admin', 'users'] as const,
  list: (filters: UserFilters) => ['admin', 'users', 'list', filters] as const,
  detail: (userId: string) => ['admin', 'users', 'detail', userId] as const,
  admins: ['admin', 'users', 'admins'] as const,
};

interface Cursor {
  createdAt: string;
  id: string;
}

/** Newest first, a page at a time by key (the last row's created_at and id). */
export const usersListQuery = (filters: UserFilters) =>
  infiniteQueryOptions({
    queryKey: usersKeys.list(filters),
    initialPageParam: null as Cursor | null,
    queryFn: async ({ pageParam }): Promise<{ rows: UserRow[]; next: Cursor | null }> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_list_users', {
        p_search: filters.search || undefined,
        p_role: filters.role ?? undefined,
        p_limit: USERS_PAGE_SIZE + 1,
        ...(pageParam ? { p_after_created_at: pageParam.createdAt, p_after_id: pageParam.id } : {}),
      });
      if (error) throw error;
      const rows = z.array(userRowSchema).parse(data);
      const page = rows.slice(0, USERS_PAGE_SIZE);
      const last = page.at(-1);
      return {
        rows: page,
        next:
          rows.length > USERS_PAGE_SIZE && last
            ? { createdAt: last.created_at, id: last.id }
            : null,
      };
    },
    getNextPageParam: (page) => page.next,
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One account, or null when there is none with this id. */
export const userDetailQuery = (userId: string) =>
  queryOptions({
    queryKey: usersKeys.detail(userId),
    queryFn: async (): Promise<UserDetail | null> => {
      if (!UUID.test(userId)) return null;
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_get_user', { p_user_id: userId });
      if (error) {
        if (error.code === 'PT404') return null;
        throw error;
      }
      return userDetailSchema.parse(data);
    },
  });

/** The admins a lead can be given to. */
export const adminsQuery = () =>
  queryOptions({
    queryKey: usersKeys.admins,
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_list_admins');
      if (error) throw error;
      return z
        .array(
          z.object({
            id: z.string(),
            email: z.string().nullable(),
            full_name: z.string().nullable(),
          }),
        )
        .parse(data);
    },
  });

export async function setUserRole(userId: string, role: UserRole): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('admin_set_user_role', { p_user_id: userId, p_role: role });
  if (error) throw error;
}

/** `hours` null: indefinitely. */
export async function banUser(userId: string, hours: number | null): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('admin_ban_user', {
    p_user_id: userId,
    ...(hours === null ? {} : { p_hours: hours }),
  });
  if (error) throw error;
}

export async function unbanUser(userId: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('admin_unban_user', { p_user_id: userId });
  if (error) throw error;
}

export async function deleteUser(userId: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('admin_delete_user', { p_user_id: userId });
  if (error) throw error;
}

/** The edge function's refusal, as the SQL functions' errors look (code, sentence, field). */
export class AdminUsersError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly details: string | null,
  ) {
    super(message);
  }
}

const functionAnswerSchema = z.object({
  error: z.string().optional(),
  message: z.string().optional(),
  field: z.string().optional(),
  user: z.object({ id: z.string(), email: z.string() }).optional(),
});

async function callAdminUsers(
  body: Record<string, unknown>,
): Promise<{ id: string; email: string }> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.functions.invoke('admin-users', { body });
  if (!error) {
    const answer = functionAnswerSchema.parse(data);
    if (!answer.user) throw new Error('admin-users answered without the user');
    return answer.user;
  }
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    const answer = functionAnswerSchema.safeParse(await context.json().catch(() => null));
    if (answer.success && answer.data.message) {
      throw new AdminUsersError(
        answer.data.message,
        answer.data.error === 'invalid_field' ? '22023' : `PT${context.status}`,
        answer.data.field ?? null,
      );
    }
  }
  throw error;
}

const returnTo = () => `${window.location.origin}/auth?mode=reset`;

export function inviteUser(email: string) {
  return callAdminUsers({ action: 'invite', email, redirect_to: returnTo() });
}

export function sendPasswordReset(userId: string) {
  return callAdminUsers({ action: 'reset', user_id: userId, redirect_to: returnTo() });
}

/**
 * Starts /admin/users' first read (the first page of the filters in the URL)
 * while the page's code loads, under the key the list uses (decision 034).
 * Only for an admin; nothing here throws.
 */
export async function prefetchUsersView(search: string): Promise<void> {
  try {
    if (!(await signedInAs('admin'))) return;
    await getQueryClient().prefetchInfiniteQuery(
      usersListQuery(parseUserFilters(new URLSearchParams(search))),
    );
  } catch {
    // The page's own query reports it.
  }
}
