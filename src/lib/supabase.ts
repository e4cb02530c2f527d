import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import { loadRuntimeConfig } from './runtime-config';

/** The app's client, typed with the schema `npm run gen:types` reads from the live database. */
export type AppSupabaseClient = SupabaseClient<Database>;

let client: Promise<AppSupabaseClient> | undefined;

/**
 * The one official Supabase client, created from the run-time config. Its code
 * loads on first use, so pages that never talk to the backend stay light.
 */
export function getSupabase(): Promise<AppSupabaseClient> {
  client ??= Promise.all([loadRuntimeConfig(), import('@supabase/supabase-js')])
    .then(([config, { createClient }]) =>
      createClient<Database>(config.url, config.anonKey, {
        auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
      }),
    )
    .catch((error: unknown) => {
      client = undefined;
      throw error;
    });
  return client;
}
