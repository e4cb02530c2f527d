import {
  createClient,
  type SupabaseClient,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import type { Database } from '../db/database';
import type { TestServer } from './harness';

/** The official client, pointed at a test server (no browser storage; the ws transport on Node 20). */
export function clientFor(
  server: Pick<TestServer, 'url' | 'anonKey'>,
  options: SupabaseClientOptions<'public'> & { key?: string } = {},
): SupabaseClient {
  const { key, ...rest } = options;
  return createClient(server.url, key ?? server.anonKey, {
    ...rest,
    auth: {
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      ...rest.auth,
    },
    realtime: { transport: WebSocket as never, ...rest.realtime },
  });
}

export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  template: string;
  metadata: { link?: string; user_id?: string } & Record<string, unknown>;
  status: string;
}

/** The newest message queued for a recipient, optionally of a template. */
export async function latestMessage(
  db: Database,
  recipient: string,
  template?: string,
): Promise<OutboxMessage> {
  const { rows } = await db.query<OutboxMessage>(
    `select id, channel, recipient, subject, body_text, body_html, template, metadata, status
     from public.outbox_messages where lower(recipient) = lower($1) and ($2::text is null or template = $2)
     order by created_at desc, id desc limit 1`,
    [recipient, template ?? null],
  );
  if (!rows[0]) throw new Error(`no message for ${recipient}${template ? ` (${template})` : ''}`);
  return rows[0];
}

/** The one-time code in a message (the first run of 6–10 digits on its own). */
export function codeIn(message: OutboxMessage): string {
  const match =
    /(?:code(?: is)?:?\s*)(\d{6,10})\b/i.exec(message.body_text) ??
    /\b(\d{6,10})\b/.exec(message.body_text);
  if (!match) throw new Error(`no code in: ${message.body_text}`);
  return match[1]!;
}

let counter = 0;
/** A unique address per test run. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@example.com`;
}
