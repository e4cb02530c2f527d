import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { clientFor, latestMessage } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Shared by the team tests: calling the team-invite edge function over real
 * HTTP as a signed-in user, and following the invitation email's link.
 */

export const TEAM_INVITE_PATH = '/functions/v1/team-invite';

export interface InviteResult {
  status: number;
  headers: Headers;
  body: {
    error?: string;
    field?: string;
    message?: string;
    delivery?: 'account_invite' | 'team_email';
    invitation?: { id: string; email: string; role: string; workspace_id: string };
  };
}

async function accessToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('the client has no session');
  return data.session.access_token;
}

/** POSTs to team-invite with the client's session (or the given bearer token, or none). */
export async function callTeamInvite(
  server: Pick<TestServer, 'url' | 'anonKey'>,
  as: SupabaseClient | { token: string | null },
  body: unknown,
  init: { rawBody?: string; method?: string } = {},
): Promise<InviteResult> {
  const token = 'token' in as ? as.token : await accessToken(as);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    apikey: server.anonKey,
  };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}${TEAM_INVITE_PATH}`, {
    method: init.method ?? 'POST',
    headers,
    body: init.method === 'GET' ? undefined : (init.rawBody ?? JSON.stringify(body)),
  });
  const text = await response.text();
  let parsed: InviteResult['body'];
  try {
    parsed = text ? (JSON.parse(text) as InviteResult['body']) : {};
  } catch {
    parsed = { message: text };
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A refusal of the function: status, field and a sentence for people. */
export function expectFunctionRefusal(result: InviteResult, status: number, field?: string): void {
  expect({ status: result.status, field: result.body.field }, result.body.message).toEqual({
    status,
    field,
  });
  expect(result.body.message).toMatch(/^[A-Z"][^\n]{10,}[.!?]$/);
  expect(result.headers.get('access-control-allow-origin')).toBe('*');
}

/**
 * Opens the auth service's invitation email to `email` as a browser would:
 * the verify link redirects to the app with a session in the fragment. Returns
 * a client signed in with it and where the link led.
 */
export async function followInviteEmail(
  server: TestServer,
  email: string,
): Promise<{ client: SupabaseClient; redirectedTo: string }> {
  const mail = await latestMessage(server.db, email, 'auth.invite');
  const response = await fetch(mail.metadata.link!, { redirect: 'manual' });
  const location = response.headers.get('location') ?? '';
  const fragment = new URLSearchParams(location.split('#')[1] ?? '');
  const accessToken = fragment.get('access_token');
  const refreshToken = fragment.get('refresh_token');
  if (!accessToken || !refreshToken) throw new Error(`no session in ${location}`);
  const client = clientFor(server);
  const { error } = await client.auth.setSession({
    access_token: accessToken,
    refresh_token: refreshToken,
  });
  if (error) throw error;
  return { client, redirectedTo: location.split('#')[0]! };
}
