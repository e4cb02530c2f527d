import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useAuth } from '@/lib/auth/use-auth';
import { getSupabase } from '@/lib/supabase';

export const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** IANA zone the workspace's business hours are read in. */
  timeZone: z.string(),
  role: z.enum(['owner', 'admin', 'member']),
});
export type Workspace = z.infer<typeof workspaceSchema>;

const membershipSchema = z.object({
  role: workspaceSchema.shape.role,
  workspace: z.object({ id: z.string(), name: z.string(), time_zone: z.string() }),
});

/**
 * The signed-in user's workspace: their first membership (the one they got
 * at sign-up), or null for an account without one (the Cervana team, partners).
 */
export async function findMyWorkspace(userId: string): Promise<Workspace | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('workspace_members')
    .select('role, workspace:workspaces!inner(id, name, time_zone)')
    .eq('user_id', userId)
    .order('created_at')
    .order('workspace_id')
    .limit(1)
    .maybeSingle();
  if (error) throw error;
  if (data === null) return null;
  const { role, workspace } = membershipSchema.parse(data);
  return { id: workspace.id, name: workspace.name, timeZone: workspace.time_zone, role };
}

/**
 * The workspace this browser last saw for the user. The dashboard starts its
 * numbers with it at once instead of after one more round trip, while the
 * workspace is fetched again beside them (row-level security decides what any
 * of them returns, so a stale id shows nothing it should not).
 */
const REMEMBERED_KEY = 'cervana:workspace';
const rememberedSchema = z.object({ userId: z.string(), workspace: workspaceSchema });

export function rememberedWorkspace(userId: string): Workspace | undefined {
  try {
    const remembered = rememberedSchema.safeParse(
      JSON.parse(localStorage.getItem(REMEMBERED_KEY) ?? 'null'),
    );
    return remembered.success && remembered.data.userId === userId
      ? remembered.data.workspace
      : undefined;
  } catch {
    return undefined;
  }
}

function rememberWorkspace(userId: string, workspace: Workspace | null): void {
  try {
    if (workspace) localStorage.setItem(REMEMBERED_KEY, JSON.stringify({ userId, workspace }));
    else localStorage.removeItem(REMEMBERED_KEY);
  } catch {
    // Storage full or off: the dashboard just waits for the workspace.
  }
}

export const workspaceQuery = (userId: string) =>
  queryOptions({
    queryKey: ['workspace', userId],
    queryFn: async () => {
      const workspace = await findMyWorkspace(userId);
      rememberWorkspace(userId, workspace);
      return workspace;
    },
  });

/** The workspace of the signed-in user (the calls pages are behind RequireAuth). */
export function useWorkspace() {
  const userId = useAuth().user?.id ?? '';
  return useQuery({
    ...workspaceQuery(userId),
    enabled: userId !== '',
    initialData: () => (userId ? rememberedWorkspace(userId) : undefined),
    // Remembered, not fetched: fetch again at once.
    initialDataUpdatedAt: 0,
  });
}
