import { createClient, type SupabaseClient } from '@supabase/supabase-js';

/**
 * The official client with the service role key, for functions that act as
 * the server (no user session). One client per project URL and key: several
 * servers may share one process (Cervana's runtime, tests).
 */

const clients = new Map<string, SupabaseClient>();

/**
 * The client builds its realtime half eagerly, and a runtime without a global
 * WebSocket (Node.js 20) would make that throw. Server-side functions here
 * never open a realtime connection; should one try, it fails with this.
 */
class NoWebSocket {
  constructor() {
    throw new Error('This function has no WebSocket: realtime is not available here.');
  }
}

export function serviceClient(url: string, serviceRoleKey: string): SupabaseClient {
  const cacheKey = `${url}\n${serviceRoleKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const webSocket = (globalThis as { WebSocket?: unknown }).WebSocket;
    client = createClient(url, serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: (webSocket ?? NoWebSocket) as never },
    });
    clients.set(cacheKey, client);
  }
  return client;
}
