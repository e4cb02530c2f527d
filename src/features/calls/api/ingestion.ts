import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { loadRuntimeConfig } from '@/lib/runtime-config';
import { getSupabase } from '@/lib/supabase';
import { CALL_EVENTS_PATH } from '../model/curl-example';

export const ingestionStatusSchema = z.object({
  has_secret: z.boolean(),
  /** When the current secret was made. */
  rotated_at: z.string().nullable(),
  /** Until when the secret it replaced still verifies, if it does. */
  previous_valid_until: z.string().nullable(),
});

export type IngestionStatus = z.infer<typeof ingestionStatusSchema>;

const secretSchema = z.string().regex(/^whsec_[0-9a-f]{64}$/);

/** Whether the workspace has a secret and when it changed; never the secret itself. */
export async function getIngestionStatus(workspaceId: string): Promise<IngestionStatus> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('ingestion_status', { p_workspace_id: workspaceId });
  if (error) throw error;
  return ingestionStatusSchema.parse(data);
}

export const ingestionStatusQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: ['ingestion-status', workspaceId],
    queryFn: () => getIngestionStatus(workspaceId),
  });

/**
 * A new secret, returned this once (owners and admins only). The one it
 * replaces keeps verifying for 24 hours.
 */
export async function rotateIngestionSecret(workspaceId: string): Promise<string> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('rotate_ingestion_secret', {
    p_workspace_id: workspaceId,
  });
  if (error) throw error;
  return secretSchema.parse(data);
}

export interface IngestionEndpoint {
  /** The backend's base URL (the browser's API URL: this server, or a hosted project). */
  apiUrl: string;
  /** The call-events function below it. */
  url: string;
}

/** Where this deployment's phone system posts its calls. */
export async function getIngestionEndpoint(): Promise<IngestionEndpoint> {
  const apiUrl = (await loadRuntimeConfig()).url.replace(/\/+$/, '');
  return { apiUrl, url: `${apiUrl}${CALL_EVENTS_PATH}` };
}

export const ingestionEndpointQuery = () =>
  queryOptions({
    queryKey: ['ingestion-endpoint'],
    queryFn: getIngestionEndpoint,
    staleTime: Infinity,
  });
