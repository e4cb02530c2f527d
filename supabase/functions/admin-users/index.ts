/**
 * POST /functions/v1/admin-users: a Cervana admin invites someone by email, or
 * has a password reset sent to an account (decision 025). What needs no auth
 * service (search, role, ban, unban, delete) is SQL the browser calls directly.
 *
 *   Authorization: Bearer <the admin's access token>
 *   {action: 'invite', email, redirect_to?}     200 {user: {id, email}}
 *   {action: 'reset', user_id, redirect_to?}    200 {user: {id, email}}
 *   400 {error: 'invalid_field', field, message}   401, 403, 404, 409, 413, 429, 502 {error, message}
 *
 * Who may do it is decided in SQL, as the caller (a client carrying the
 * caller's own Authorization header): admin_user_email_target refuses anyone
 * but an admin and checks the address. Only then, with the service role (which
 * never leaves this function), the auth service sends the invitation or reset
 * (queued in the outbox like every email), and admin_record_user_email, again
 * as the caller, writes the audit entry: the actor is the caller's token, never
 * something the browser says.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { jsonResponse, readBodyLimited, TOO_LARGE } from '../_shared/http.ts';
import { serviceClient } from '../_shared/supabase.ts';
import { callerClient } from './clients.ts';

const MAX_BODY_BYTES = 16 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
    message: 'The email could not be sent. Please try again in a moment.',
  });
const unauthorized = () =>
  answer(401, { error: 'unauthorized', message: 'Please sign in again to do this.' });

type AdminRequest =
  | { action: 'invite'; email: string; redirectTo?: string }
  | { action: 'reset'; userId: string; redirectTo?: string };

function parseRequest(value: unknown): AdminRequest | Response {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalidField('body', 'Send a JSON object with an action.');
  }
  const body = value as Record<string, unknown>;
  let redirectTo: string | undefined;
  if (body.redirect_to !== undefined) {
    if (typeof body.redirect_to !== 'string' || body.redirect_to.length > 2000) {
      return invalidField('redirect_to', 'The return address must be a web address.');
    }
    redirectTo = body.redirect_to;
  }
  if (body.action === 'invite') {
    if (typeof body.email !== 'string' || body.email.length > 320) {
      return invalidField(
        'email',
        typeof body.email === 'string'
          ? 'Please enter a valid email address, like jane@company.com.'
          : 'Please enter the email address of the person to invite.',
      );
    }
    return { action: 'invite', email: body.email, redirectTo };
  }
  if (body.action === 'reset') {
    if (typeof body.user_id !== 'string' || !UUID.test(body.user_id)) {
      return invalidField('user_id', 'Please choose the person to send a reset to.');
    }
    return { action: 'reset', userId: body.user_id.toLowerCase(), redirectTo };
  }
  return invalidField('action', 'The action must be "invite" or "reset".');
}

interface PostgrestLikeError {
  code?: string;
  message: string;
  details?: string | null;
}

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
    case 'PGRST301':
    case 'PGRST302':
    case 'PGRST303':
      return unauthorized();
    default:
      console.error('admin-users: database refused', error.code, error.message);
      return internalError();
  }
}

/** The auth service's refusal, as this function's answer. */
function sendFailure(error: { code?: string; status?: number }, what: string): Response {
  if (error.status === 429) {
    return answer(429, {
      error: 'rate_limited',
      message: `We have sent this address an email very recently, so the ${what} was not sent. Please wait a minute and try again.`,
    });
  }
  if (error.code === 'email_exists' || error.status === 422) {
    return answer(409, {
      error: 'conflict',
      message:
        'Someone with this email address has an account already: find them in the list instead.',
    });
  }
  console.error('admin-users: the auth service refused', what, error.code, error.status);
  return answer(502, {
    error: 'email_not_sent',
    message: `The ${what} could not be sent. Please try again in a moment.`,
  });
}

async function send(
  service: SupabaseClient,
  input: AdminRequest,
  email: string,
): Promise<{ id: string } | Response> {
  if (input.action === 'invite') {
    const invited = await service.auth.admin.inviteUserByEmail(
      email,
      input.redirectTo ? { redirectTo: input.redirectTo } : {},
    );
    if (invited.error) return sendFailure(invited.error, 'invitation');
    return { id: invited.data.user.id };
  }
  const reset = await service.auth.resetPasswordForEmail(
    email,
    input.redirectTo ? { redirectTo: input.redirectTo } : {},
  );
  if (reset.error) return sendFailure(reset.error, 'password reset');
  return { id: input.userId };
}

async function handle(request: Request): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response('ok', { headers: CORS_HEADERS });
  if (request.method !== 'POST') {
    await request.body?.cancel().catch(() => undefined);
    return answer(
      405,
      { error: 'method_not_allowed', message: 'Send these requests with POST.' },
      { Allow: 'POST, OPTIONS' },
    );
  }

  const url = Deno.env.get('SUPABASE_URL');
  const anonKey = Deno.env.get('SUPABASE_ANON_KEY');
  const serviceKey = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
  if (!url || !anonKey || !serviceKey) return internalError();

  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
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
    return invalidField('body', 'Send a JSON object with an action.');
  }
  const input = parseRequest(parsed);
  if (input instanceof Response) return input;

  // As the caller: SQL decides whether they are an admin (from the database,
  // with their session alive), not this function.
  const caller = callerClient(url, anonKey, `Bearer ${token}`);
  const target = await caller.rpc('admin_user_email_target', {
    p_action: input.action,
    p_user_id: input.action === 'reset' ? input.userId : null,
    p_email: input.action === 'invite' ? input.email : null,
  });
  if (target.error) return refusal(target.error);
  const email = target.data as string;

  const sent = await send(serviceClient(url, serviceKey), input, email);
  if (sent instanceof Response) return sent;

  const recorded = await caller.rpc('admin_record_user_email', {
    p_action: input.action,
    p_user_id: sent.id,
  });
  if (recorded.error) {
    // The email is on its way; say so, and leave the failure in the log.
    console.error('admin-users: could not record the audit entry', recorded.error.message);
  }
  return answer(200, { user: { id: sent.id, email } });
}

export async function handler(request: Request): Promise<Response> {
  try {
    return await handle(request);
  } catch (error) {
    console.error('admin-users: failed', error);
    return internalError();
  }
}

Deno.serve(handler);
