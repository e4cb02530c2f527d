import { createClient, type SupabaseClient } from '@supabase/supabase-js';

/**
 * A client that acts as the caller: the anon key plus the caller's own
 * Authorization header, so row-level security and the SQL functions' own
 * checks decide what they may do. Made per request, never cached.
 */
export function callerClient(url: string, anonKey: string, authorization: string): SupabaseClient {
  const webSocket = (globalThis as { WebSocket?: unknown }).WebSocket;
  return createClient(url, anonKey, {
    global: { headers: { Authorization: authorization } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: (webSocket ?? NoWebSocket) as never },
  });
}

class NoWebSocket {
  constructor() {
    throw new Error('This function has no WebSocket: realtime is not available here.');
  }
}
