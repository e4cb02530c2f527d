import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * Reads a request body with a size limit counted while it streams in, for
 * every route that buffers a body (auth, data API, storage JSON; uploads
 * stream to disk with their own limits, `server/storage/upload-stream.ts`).
 *
 * - A `Content-Length` over the limit is refused before a byte is read.
 * - A body without one (chunked) is counted chunk by chunk: the read stops as
 *   soon as it passes the limit, without buffering the rest.
 * - The request is left paused and the answer goes out at once. Once it is
 *   written, @hono/node-server reads and discards what the client still sends
 *   for at most 500 ms or 64 MB, then closes the socket (`drainIncoming`, its
 *   default `autoCleanupIncoming`): a client that stops sending keeps its
 *   connection, and one that does not (an endless chunked body) is cut off,
 *   after it could read the 413 rather than a reset. (`Connection: close`
 *   would close at once, but a close with unread data resets the connection,
 *   which can destroy the 413 before the client reads it.)
 *
 * Each service turns `BodyTooLargeError` and `BodyReadError` into its own
 * wire shape.
 */

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
  }
}

/** The client went away (or the stream failed) before the body ended. */
export class BodyReadError extends Error {
  override name = 'BodyReadError';
}

/** What @hono/node-server passes as the context's env. */
interface NodeBindings {
  incoming?: IncomingMessage;
}

function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as NodeBindings | undefined)?.incoming;
}

/** The declared length, or undefined without a (well-formed) Content-Length. */
function declaredLength(c: Context): number | undefined {
  const header = c.req.header('content-length');
  return header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
}

function readIncoming(incoming: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (incoming.readableEnded) {
      resolve(Buffer.alloc(0));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > limit) {
        cleanup();
        // Stop reading here; what follows is drained (bounded) after the answer, see above.
        incoming.pause();
        chunks.length = 0;
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new BodyReadError('The request body could not be read', { cause: error }));
    };
    const onClose = () => {
      if (incoming.readableEnded) return;
      cleanup();
      reject(new BodyReadError('The client closed the connection before the body ended'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

/** Outside Node's server (e.g. `app.request()` in unit tests): the Fetch body, read the same way. */
async function readWebBody(c: Context, limit: number): Promise<Buffer> {
  const body = c.req.raw.body;
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => undefined);
        throw new BodyTooLargeError(limit);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    throw new BodyReadError('The request body could not be read', { cause: error });
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, size);
}

/** The whole body as bytes, at most `limit` of them (else `BodyTooLargeError`). */
export async function readBodyBytes(c: Context, limit: number): Promise<Buffer> {
  const declared = declaredLength(c);
  if (declared !== undefined && declared > limit) throw new BodyTooLargeError(limit);
  const incoming = incomingOf(c);
  // @hono/node-server hands over Node's request: read it directly, as uploads do.
  if (incoming && typeof incoming.on === 'function' && !incoming.readableDidRead) {
    return readIncoming(incoming, limit);
  }
  return readWebBody(c, limit);
}

const utf8 = new TextDecoder();

/** The whole body as UTF-8 text (a BOM dropped, as `Request.text()` does), at most `limit` bytes of it. */
export async function readBodyText(c: Context, limit: number): Promise<string> {
  return utf8.decode(await readBodyBytes(c, limit));
}
