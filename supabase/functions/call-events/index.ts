/**
 * POST /functions/v1/call-events: a telephony provider reports one finished
 * call. Public contract (README, "Call ingestion"):
 *
 *   X-Cervana-Workspace: <workspace id>
 *   X-Cervana-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
 *   body: JSON, at most 1 MB
 *
 *   201 {id, status: 'created', recording_upload: {path, url, token}}
 *   200 {id, status: 'duplicate', recording_upload: {path, url, token} | null}
 *   400 {error: 'invalid_field', field, message}
 *   401 {error: 'invalid_signature', message}   (one message for every cause)
 *   405, 413, 429 (+ Retry-After), 500 {error: 'internal_error', message}
 *
 * Verification, the rate limit, validation and the idempotent insert happen
 * in one database call (public.ingest_call, service_role only); this function
 * reads the body under the cap, parses the headers, maps the answer and signs
 * the recording's upload URL. It never fetches a URL it is given.
 *
 * Web-standard code for Deno (Supabase Edge Functions) and Cervana's own
 * runtime (server/functions): settings are read per request.
 */
import { jsonResponse, readBodyLimited, TOO_LARGE } from '../_shared/http.ts';
import { parseSignatureHeader } from '../_shared/signature.ts';
import { serviceClient } from '../_shared/supabase.ts';

const MAX_BODY_BYTES = 1024 * 1024;
const RECORDINGS_BUCKET = 'call-recordings';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The same for every cause: a caller learns nothing about which part was wrong. */
const INVALID_SIGNATURE = "The request's signature is missing, invalid or expired.";

const invalidSignature = () =>
  jsonResponse(401, { error: 'invalid_signature', message: INVALID_SIGNATURE });
const invalidBody = (message: string) =>
  jsonResponse(400, { error: 'invalid_field', field: 'body', message });
const internalError = () =>
  jsonResponse(500, {
    error: 'internal_error',
    message: 'The call could not be stored. Please retry later.',
  });

interface IngestResult {
  id: string;
  status: 'created' | 'duplicate';
  recording_path: string;
}

interface RecordingUpload {
  path: string;
  url: string;
  token: string;
}

async function handle(request: Request): Promise<Response> {
  if (request.method !== 'POST') {
    await request.body?.cancel().catch(() => undefined);
    return jsonResponse(
      405,
      { error: 'method_not_allowed', message: 'Send call events with POST.' },
      { Allow: 'POST' },
    );
  }

  const raw = await readBodyLimited(request, MAX_BODY_BYTES);
  if (raw === TOO_LARGE) {
    return jsonResponse(413, {
      error: 'payload_too_large',
      message: 'The body must be at most 1 MB (1,048,576 bytes).',
    });
  }

  const workspaceId = request.headers.get('x-cervana-workspace')?.trim() ?? '';
  const signature = parseSignatureHeader(request.headers.get('x-cervana-signature'));
  if (!UUID.test(workspaceId) || !signature) return invalidSignature();

  let body: string;
  try {
    // ignoreBOM keeps a leading BOM in the text, so the text is exactly the signed bytes.
    body = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    return invalidBody('The body must be JSON encoded as UTF-8.');
  }
  // PostgreSQL text cannot hold U+0000, and JSON never has it outside a string escape.
  if (body.includes('\u0000')) return invalidBody('The body must be a JSON object.');

  const url = Deno.env.get('SUPABASE_URL');
  const key = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
  if (!url || !key) return internalError();
  const supabase = serviceClient(url, key);

  const { data, error } = await supabase.rpc('ingest_call', {
    p_workspace_id: workspaceId.toLowerCase(),
    p_timestamp: signature.timestamp,
    p_signature: signature.signatures.join(','),
    p_body: body,
  });
  if (error) {
    switch (error.code) {
      case 'CV401':
        return invalidSignature();
      case 'CV400':
        return jsonResponse(400, {
          error: 'invalid_field',
          field: error.details,
          message: error.message,
        });
      case 'CV429': {
        const wait = /^\d{1,2}$/.test(error.details ?? '') ? error.details : '60';
        return jsonResponse(
          429,
          { error: 'rate_limited', message: error.message },
          { 'Retry-After': wait },
        );
      }
      default:
        console.error('call-events: ingest_call failed', error.code, error.message);
        return internalError();
    }
  }

  const result = data as IngestResult;
  const upload = await supabase.storage
    .from(RECORDINGS_BUCKET)
    .createSignedUploadUrl(result.recording_path);
  let recordingUpload: RecordingUpload | null = null;
  if (upload.data) {
    recordingUpload = {
      path: upload.data.path,
      url: upload.data.signedUrl,
      token: upload.data.token,
    };
  } else if (result.status === 'created' || !isAlreadyThere(upload.error)) {
    // Stored, but without an upload URL: the provider's retry gets one (duplicate).
    console.error('call-events: no upload URL', upload.error?.message);
    return internalError();
  }
  return jsonResponse(result.status === 'created' ? 201 : 200, {
    id: result.id,
    status: result.status,
    recording_upload: recordingUpload,
  });
}

/** The recording of a duplicate was uploaded already: there is nothing left to upload. */
function isAlreadyThere(error: unknown): boolean {
  const details = error as { statusCode?: unknown; status?: unknown; message?: unknown } | null;
  return (
    String(details?.statusCode ?? details?.status ?? '') === '409' ||
    /already exists/i.test(String(details?.message ?? ''))
  );
}

export async function handler(request: Request): Promise<Response> {
  try {
    return await handle(request);
  } catch (error) {
    console.error('call-events: failed', error);
    return internalError();
  }
}

Deno.serve(handler);
