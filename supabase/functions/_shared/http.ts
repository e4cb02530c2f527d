/**
 * Web-standard helpers for Edge Functions (Deno on Supabase, and Cervana's
 * own runtime): JSON answers and a request body read under a size cap.
 */

/** A JSON answer (application/json; charset=utf-8). */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The body was larger than the cap. */
export const TOO_LARGE = Symbol('too large');

/**
 * The raw body, at most `maxBytes`: a declared Content-Length past the cap is
 * refused before anything is read, and a streamed body is cut off (and the
 * rest cancelled) as soon as it passes the cap.
 */
export async function readBodyLimited(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | typeof TOO_LARGE> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return TOO_LARGE;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
