/**
 * POST /functions/v1/team-invite: a workspace's owner or admin invites someone
 * by email, or sends a pending invitation again (decision 019).
 *
 *   Authorization: Bearer <the user's access token>
 *   {workspace_id, email, role}                 invite ('owner' only from an owner)
 *   {action: 'resend', invitation_id}           send a pending invitation again
 *
 *   201/200 {invitation: {id, workspace_id, workspace_name, email, role, expires_at, …},
 *            delivery: 'account_invite' | 'team_email'}
 *   400 {error: 'invalid_field', field, message}   401, 403, 404, 409, 413, 429 {error, message}
 *   500/502 {error, message}: nothing was stored
 *
 * Who may invite is decided in SQL: invite_to_workspace / resend_workspace_invitation
 * run as the caller (a client carrying the caller's Authorization header). Only
 * then, with the service role (which never leaves this function), the email
 * goes out: the auth service's invitation for an address without an account,
 * else our own email through queue_workspace_invitation_email. Either carries
 * the link <site>/dashboard/team?invitation=<id>. An invitation whose email
 * could not be sent is deleted again.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { jsonResponse, readBodyLimited, TOO_LARGE } from '../_shared/http.ts';
import { serviceClient } from '../_shared/supabase.ts';
import { callerClient } from './clients.ts';

const MAX_BODY_BYTES = 16 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The browser calls this from the app's origin (supabase.functions.invoke). */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Max-Age': '86400',
};

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  jsonResponse(status, body, { ...CORS_HEADERS, ...headers });
const invalidField = (field: string, message: string) =>
  answer(400, { error: 'invalid_field', field, message });
const internalError = () =>
  answer(500, {
    error: 'internal_error',
    message:
      'The invitation could not be sent, and nothing was saved. Please try again in a moment.',
  });

interface Invitation {
  id: string;
  workspace_id: string;
  workspace_name: string;
  email: string;
  role: string;
  created_at: string;
  expires_at: string;
  last_sent_at: string;
  link: string;
}

type TeamRequest =
  | { action: 'invite'; workspaceId: string; email: string; role: string }
  | { action: 'resend'; invitationId: string };

/** The request's fields, or the refusal naming the first bad one. */
function parseRequest(value: unknown): TeamRequest | Response {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalidField('body', 'Send a JSON object with workspace_id, email and role.');
  }
  const body = value as Record<string, unknown>;
  if (body.action === 'resend') {
    if (typeof body.invitation_id !== 'string' || !UUID.test(body.invitation_id)) {
      return invalidField('invitation_id', 'Please choose an invitation to send again.');
    }
    return { action: 'resend', invitationId: body.invitation_id.toLowerCase() };
  }
  if (body.action !== undefined && body.action !== 'invite') {
    return invalidField('action', 'The action must be "invite" or "resend".');
  }
  if (typeof body.workspace_id !== 'string' || !UUID.test(body.workspace_id)) {
    return invalidField('workspace_id', 'Please choose the workspace to invite to.');
  }
  if (typeof body.email !== 'string' || body.email.length > 320) {
    return invalidField(
      'email',
      typeof body.email === 'string'
        ? 'Please enter a valid email address, like jane@company.com.'
        : 'Please enter the email address of the person to invite.',
    );
  }
  if (typeof body.role !== 'string' || body.role.length > 20) {
    return invalidField('role', 'Please choose a role from the list.');
  }
  return {
    action: 'invite',
    workspaceId: body.workspace_id.toLowerCase(),
    email: body.email,
    role: body.role,
  };
}

interface PostgrestLikeError {
  code?: string;
  message: string;
  details?: string | null;
}

/** The SQL functions' refusals, as this function's answers. */
function refusal(error: PostgrestLikeError): Response {
  switch (error.code) {
    case '22023':
      return invalidField(error.details ?? 'body', error.message);
    case '42501':
      return answer(403, { error: 'forbidden', message: error.message });
    case 'PT404':
      return answer(404, { error: 'not_found', message: error.message });
    case 'PT409':
      return answer(409, { error: 'conflict', message: error.message });
    case 'PT429':
      return answer(429, { error: 'rate_limited', message: error.message });
    case 'PGRST301':
    case 'PGRST302':
      return unauthorized();
    default:
      console.error('team-invite: database refused', error.code, error.message);
      return internalError();
  }
}

const unauthorized = () =>
  answer(401, {
    error: 'unauthorized',
    message: 'Please sign in again to invite people to your workspace.',
  });

/** Sends the email for an invitation: how it went out, or the answer to give when it did not. */
async function sendEmail(
  service: SupabaseClient,
  invitation: Invitation,
): Promise<string | Response> {
  const invited = await service.auth.admin.inviteUserByEmail(invitation.email, {
    redirectTo: invitation.link,
  });
  if (!invited.error) return 'account_invite';
  const { code, status } = invited.error as { code?: string; status?: number };
  if (code === 'email_exists' || status === 422) {
    // The address has an account: the auth service invites only new addresses.
    const queued = await service.rpc('queue_workspace_invitation_email', {
      p_invitation_id: invitation.id,
    });
    if (!queued.error) return 'team_email';
    console.error('team-invite: could not queue the email', queued.error.message);
    return internalError();
  }
  if (status === 429) {
    return answer(429, {
      error: 'rate_limited',
      message:
        'We have sent too many emails in the last hour, so this invitation was not sent. Please try again later.',
    });
  }
  console.error('team-invite: the auth service refused the invitation', code, status);
  return answer(502, {
    error: 'email_not_sent',
    message:
      'The invitation email could not be sent, and nothing was saved. Please try again in a moment.',
  });
}

function publicInvitation(invitation: Invitation) {
  const { link: _link, ...rest } = invitation;
  return rest;
}

async function handle(request: Request): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response('ok', { headers: CORS_HEADERS });
  if (request.method !== 'POST') {
    await request.body?.cancel().catch(() => undefined);
    return answer(
      405,
      { error: 'method_not_allowed', message: 'Send invitations with POST.' },
      {
        Allow: 'POST, OPTIONS',
      },
    );
  }

  const url = Deno.env.get('SUPABASE_URL');
  const anonKey = Deno.env.get('SUPABASE_ANON_KEY');
  const serviceKey = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
  if (!url || !anonKey || !serviceKey) return internalError();

  const authorization = request.headers.get('authorization') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  if (!token) {
    await request.body?.cancel().catch(() => undefined);
    return unauthorized();
  }

  const raw = await readBodyLimited(request, MAX_BODY_BYTES);
  if (raw === TOO_LARGE) {
    return answer(413, {
      error: 'payload_too_large',
      message: 'The request must be at most 16 KB.',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return invalidField('body', 'Send a JSON object with workspace_id, email and role.');
  }
  const input = parseRequest(parsed);
  if (input instanceof Response) return input;

  const caller = callerClient(url, anonKey, `Bearer ${token}`);
  const user = await caller.auth.getUser(token);
  if (user.error || !user.data.user) return unauthorized();

  const stored =
    input.action === 'invite'
      ? await caller.rpc('invite_to_workspace', {
          p_workspace_id: input.workspaceId,
          p_email: input.email,
          p_role: input.role,
        })
      : await caller.rpc('resend_workspace_invitation', { p_invitation_id: input.invitationId });
  if (stored.error) return refusal(stored.error);
  const invitation = stored.data as Invitation;

  const service = serviceClient(url, serviceKey);
  const delivery = await sendEmail(service, invitation);
  if (delivery instanceof Response) {
    if (input.action === 'invite') {
      const removed = await service.from('workspace_invitations').delete().eq('id', invitation.id);
      if (removed.error) console.error('team-invite: could not remove', removed.error.message);
    }
    return delivery;
  }
  return answer(input.action === 'invite' ? 201 : 200, {
    invitation: publicInvitation(invitation),
    delivery,
  });
}

export async function handler(request: Request): Promise<Response> {
  try {
    return await handle(request);
  } catch (error) {
    console.error('team-invite: failed', error);
    return internalError();
  }
}

Deno.serve(handler);
