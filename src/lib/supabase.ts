import type { SupabaseClient } from '@supabase/supabase-js';
import { loadRuntimeConfig } from './runtime-config';

let client: Promise<SupabaseClient> | undefined;

/**
 * The one official Supabase client, created from the run-time config. Its code
 * loads on first use, so pages that never talk to the backend stay light.
 */
export function getSupabase(): Promise<SupabaseClient> {
  client ??= Promise.all([loadRuntimeConfig(), import('@supabase/supabase-js')])
    .then(([config, { createClient }]) =>
      createClient(config.url, config.anonKey, {
        auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
      }),
    )
    .catch((error: unknown) => {
      client = undefined;
      throw error;
    });
  return client;
}
