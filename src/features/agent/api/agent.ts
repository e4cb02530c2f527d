import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { storedSettingsSchema, type StoredSettings } from '../model/agent-settings';

/** Everything about one workspace's agent starts with ['agent', workspaceId]. */
export const agentKeys = {
  all: (workspaceId: string) => ['agent', workspaceId] as const,
  current: (workspaceId: string) => ['agent', workspaceId, 'current'] as const,
  versions: (workspaceId: string, agentId: string) =>
    ['agent', workspaceId, 'versions', agentId] as const,
};

const SETTINGS_COLUMNS =
  'name, greeting, voice, languages, business_hours, after_hours, after_hours_forward_to, ' +
  'escalation_triggers, escalation_email, escalation_phone';

const agentRowSchema = storedSettingsSchema.extend({
  id: z.string(),
  version: z.number(),
  updated_at: z.string(),
});

export interface Agent {
  id: string;
  version: number;
  updatedAt: string;
  settings: StoredSettings;
}

function toAgent(row: z.infer<typeof agentRowSchema>): Agent {
  const { id, version, updated_at: updatedAt, ...settings } = row;
  return { id, version, updatedAt, settings };
}

/** The workspace's agent: its first, the one every workspace is given. */
export const agentQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: agentKeys.current(workspaceId),
    queryFn: async (): Promise<Agent | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('agents')
        .select(`id, version, updated_at, ${SETTINGS_COLUMNS}`)
        .eq('workspace_id', workspaceId)
        .order('created_at')
        .order('id')
        .limit(1)
        .maybeSingle();
      if (error) throw error;
      return data === null ? null : toAgent(agentRowSchema.parse(data));
    },
  });

const versionRowSchema = z.object({
  version: z.number(),
  settings: storedSettingsSchema,
  changed_at: z.string(),
  restored_from: z.number().nullable(),
  changed_by: z.string().nullable(),
  editor: z.object({ full_name: z.string().nullable() }).nullable(),
});
export type AgentVersion = z.infer<typeof versionRowSchema>;

/** The newest versions first; a version that no longer parses is left out rather than failing the list. */
export const agentVersionsQuery = (workspaceId: string, agentId: string) =>
  queryOptions({
    queryKey: agentKeys.versions(workspaceId, agentId),
    queryFn: async (): Promise<AgentVersion[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('agent_versions')
        .select(
          'version, settings, changed_at, restored_from, changed_by, editor:profiles(full_name)',
        )
        .eq('agent_id', agentId)
        .order('version', { ascending: false })
        .limit(50);
      if (error) throw error;
      return (data ?? []).flatMap((row) => {
        const parsed = versionRowSchema.safeParse(row);
        return parsed.success ? [parsed.data] : [];
      });
    },
  });

const savedSchema = storedSettingsSchema.extend({ version: z.number(), changed: z.boolean() });
export type SavedAgent = z.infer<typeof savedSchema>;

/** Saves every setting at once; refused (409) when the agent changed since `expectedVersion`. */
export async function saveAgentSettings(
  agentId: string,
  settings: StoredSettings,
  expectedVersion: number,
): Promise<SavedAgent> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('save_agent_settings', {
    p_agent_id: agentId,
    p_settings: settings,
    p_expected_version: expectedVersion,
  });
  if (error) throw error;
  return savedSchema.parse(data);
}

/** Makes an earlier version's settings the agent's next version. */
export async function restoreAgentVersion(
  agentId: string,
  version: number,
  expectedVersion: number,
): Promise<SavedAgent> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('restore_agent_version', {
    p_agent_id: agentId,
    p_version: version,
    p_expected_version: expectedVersion,
  });
  if (error) throw error;
  return savedSchema.parse(data);
}
