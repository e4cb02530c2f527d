import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';

export const phoneNumberKeys = {
  all: (workspaceId: string) => ['phone-numbers', workspaceId] as const,
  list: (workspaceId: string) => ['phone-numbers', workspaceId, 'list'] as const,
  agents: (workspaceId: string) => ['phone-numbers', workspaceId, 'agents'] as const,
};

const phoneNumberSchema = z.object({
  id: z.string(),
  e164: z.string(),
  label: z.string().nullable(),
  agent_id: z.string().nullable(),
  created_at: z.string(),
});
export type PhoneNumber = z.infer<typeof phoneNumberSchema>;

/** The workspace's numbers, oldest first (the main line usually comes first). */
export const phoneNumbersQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: phoneNumberKeys.list(workspaceId),
    queryFn: async (): Promise<PhoneNumber[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('phone_numbers')
        .select('id, e164, label, agent_id, created_at')
        .eq('workspace_id', workspaceId)
        .order('created_at')
        .order('id');
      if (error) throw error;
      return z.array(phoneNumberSchema).parse(data);
    },
  });

const agentSchema = z.object({ id: z.string(), name: z.string() });
export type AgentChoice = z.infer<typeof agentSchema>;

/** The agents a number can route to. */
export const agentChoicesQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: phoneNumberKeys.agents(workspaceId),
    queryFn: async (): Promise<AgentChoice[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('agents')
        .select('id, name')
        .eq('workspace_id', workspaceId)
        .order('created_at')
        .order('id');
      if (error) throw error;
      return z.array(agentSchema).parse(data);
    },
  });

export interface NumberInput {
  e164: string;
  label: string;
  agentId: string;
}

export async function addPhoneNumber(workspaceId: string, input: NumberInput): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('add_phone_number', {
    p_workspace_id: workspaceId,
    p_e164: input.e164,
    p_label: input.label,
    p_agent_id: input.agentId,
  });
  if (error) throw error;
}

export async function updatePhoneNumber(id: string, input: NumberInput): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('update_phone_number', {
    p_id: id,
    p_e164: input.e164,
    p_label: input.label,
    p_agent_id: input.agentId,
  });
  if (error) throw error;
}

export async function removePhoneNumber(id: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('remove_phone_number', { p_id: id });
  if (error) throw error;
}
