import { createHmac } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { signedInClient, type SignedIn } from '../forms/forms-testing';
import { clientFor } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Shared by the call ingestion tests (server/calls/ingestion*.int.test.ts,
 * calls-rls.int.test.ts): workspace owners with a secret, signing as a
 * telephony provider does, posting to /functions/v1/call-events over real
 * HTTP, and sound call bodies.
 */

export const CALL_EVENTS_PATH = '/functions/v1/call-events';
export const INVALID_SIGNATURE_MESSAGE = "The request's signature is missing, invalid or expired.";

/** HMAC-SHA256 of "<t>.<body>" under the secret, hex: what a provider puts in v1=. */
export function sign(secret: string, timestamp: number | string, body: string | Buffer): string {
  return createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.from(body)]))
    .digest('hex');
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function serviceClient(server: TestServer): SupabaseClient {
  return clientFor(server, { key: server.serviceRoleKey });
}

export interface Owner extends SignedIn {
  workspaceId: string;
  secret: string;
}

/** The workspace a user owns (made at sign-up). */
export async function workspaceOf(server: TestServer, userId: string): Promise<string> {
  const { rows } = await server.db.query<{ workspace_id: string }>(
    'select workspace_id from public.workspace_members where user_id = $1 order by created_at limit 1',
    [userId],
  );
  if (!rows[0]) throw new Error(`no workspace for ${userId}`);
  return rows[0].workspace_id;
}

/** A new customer (owner of a new workspace) who rotated the ingestion secret once. */
export async function ownerWithSecret(server: TestServer, fullName: string): Promise<Owner> {
  const user = await signedInClient(server, { fullName, company: `${fullName} Co` });
  const workspaceId = await workspaceOf(server, user.id);
  const { data, error } = await user.client.rpc('rotate_ingestion_secret', {
    p_workspace_id: workspaceId,
  });
  if (error) throw error;
  return { ...user, workspaceId, secret: data as string };
}

/** Adds a user to a workspace as the superuser (the API has no invitations yet). */
export async function addMember(
  server: TestServer,
  workspaceId: string,
  fullName: string,
  role: 'admin' | 'member',
): Promise<SignedIn> {
  const user = await signedInClient(server, { fullName });
  await server.db.query(
    `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, $3)`,
    [workspaceId, user.id, role],
  );
  return user;
}

/** Lets a workspace send many events a minute (most tests post more than the default allows in a file). */
export async function raiseRateLimit(
  server: TestServer,
  workspaceId: string,
  perMinute = 1_000_000,
): Promise<void> {
  await server.db.query(
    `insert into private.ingestion_limits (workspace_id, per_minute) values ($1, $2)
     on conflict (workspace_id) do update set per_minute = excluded.per_minute`,
    [workspaceId, perMinute],
  );
}

let counter = 0;
export function uniqueCallId(label = 'call'): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}`;
}

/** A sound call event, with `overrides` (undefined removes a field). */
export function callBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    call_id: uniqueCallId(),
    direction: 'inbound',
    from: '+14155550123',
    to: '+18005550199',
    started_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    duration_seconds: 184,
    outcome: 'resolved',
    sentiment: 'positive',
    summary: 'Caller asked for a refund of a duplicate invoice charge.',
    transcript: [
      {
        speaker: 'agent',
        start_ms: 0,
        end_ms: 2400,
        text: 'Thanks for calling Acme, how can I help?',
      },
      {
        speaker: 'caller',
        start_ms: 2600,
        end_ms: 6100,
        text: 'I was charged twice on my last invoice.',
      },
    ],
    extracted: { invoice_number: 'INV-1042', refund: true },
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return body;
}

export interface PostOptions {
  workspaceId?: string | null;
  secret?: string | string[];
  /** Seconds since the epoch for t= (default now). */
  timestamp?: number | string;
  /** The whole X-Cervana-Signature header instead of a computed one (null: none). */
  signatureHeader?: string | null;
  headers?: Record<string, string>;
  method?: string;
}

export interface PostResult {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & {
    id?: string;
    status?: string;
    error?: string;
    field?: string;
    message?: string;
    recording_upload?: { path: string; url: string; token: string } | null;
  };
}

/** POSTs a call event as a provider would: the raw body signed under the secret(s). */
export async function postCallEvent(
  server: Pick<TestServer, 'url'>,
  body: string | Buffer | Record<string, unknown>,
  options: PostOptions = {},
): Promise<PostResult> {
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const timestamp = options.timestamp ?? nowSeconds();
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.workspaceId !== null && options.workspaceId !== undefined) {
    headers['X-Cervana-Workspace'] = options.workspaceId;
  }
  if (options.signatureHeader !== undefined) {
    if (options.signatureHeader !== null) headers['X-Cervana-Signature'] = options.signatureHeader;
  } else if (options.secret !== undefined) {
    const secrets = Array.isArray(options.secret) ? options.secret : [options.secret];
    headers['X-Cervana-Signature'] = [
      `t=${timestamp}`,
      ...secrets.map((secret) => `v1=${sign(secret, timestamp, raw)}`),
    ].join(',');
  }
  const response = await fetch(`${server.url}${CALL_EVENTS_PATH}`, {
    method: options.method ?? 'POST',
    headers: { ...headers, ...options.headers },
    ...(options.method === 'GET' || options.method === 'HEAD'
      ? {}
      : { body: typeof raw === 'string' ? raw : new Uint8Array(raw) }),
  });
  const text = await response.text();
  let parsed: PostResult['body'];
  try {
    parsed = text ? (JSON.parse(text) as PostResult['body']) : {};
  } catch {
    parsed = { unparsed: text };
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Posts a sound event for an owner's workspace. */
export function postAs(
  server: Pick<TestServer, 'url'>,
  owner: Pick<Owner, 'workspaceId' | 'secret'>,
  body: string | Buffer | Record<string, unknown>,
  options: PostOptions = {},
): Promise<PostResult> {
  return postCallEvent(server, body, {
    workspaceId: owner.workspaceId,
    secret: owner.secret,
    ...options,
  });
}

/** The one 401 every signature problem gets. */
export function expectInvalidSignature(result: PostResult): void {
  expect({ status: result.status, body: result.body }).toEqual({
    status: 401,
    body: { error: 'invalid_signature', message: INVALID_SIGNATURE_MESSAGE },
  });
  expect(result.headers.get('content-type')).toMatch(/^application\/json/);
}

/** Calls stored for a workspace (as the superuser). */
export async function callCount(server: TestServer, workspaceId: string): Promise<number> {
  const { rows } = await server.db.query<{ count: number }>(
    'select count(*)::int as count from public.calls where workspace_id = $1 and not is_sample',
    [workspaceId],
  );
  return rows[0]!.count;
}
