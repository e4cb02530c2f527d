import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * A function's request body: the caller's bytes as a stream the function
 * reads at its own pace (nothing is buffered beyond the stream's queue),
 * counted as they arrive.
 *
 * Past the limit the stream errors, `onTooLarge` is told (the gateway then
 * answers 413 whatever the function did), and reading stops without
 * destroying the socket: once the answer is written, @hono/node-server reads
 * and discards what the client still sends (bounded; see
 * server/http/read-body.ts), so a keep-alive connection survives. A body the
 * function never started reading is `release`d the same way after the call.
 */

export interface FunctionRequestBody {
  stream: ReadableStream<Uint8Array> | null;
  /** Stops feeding a stream the function did not read, leaving the rest to the server's drain. */
  release(): void;
}

/** What @hono/node-server passes as the context's env. */
interface NodeBindings {
  incoming?: IncomingMessage;
}

const QUEUE_BYTES = 64 * 1024;

export function functionRequestBody(
  c: Context,
  limit: number,
  onTooLarge: () => void,
): FunctionRequestBody {
  const method = c.req.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return { stream: null, release: () => undefined };
  const incoming = (c.env as NodeBindings | undefined)?.incoming;
  if (incoming && typeof incoming.on === 'function' && !incoming.readableDidRead) {
    return fromIncoming(incoming, limit, onTooLarge);
  }
  // Outside Node's server (app.request() in unit tests): the Fetch body, counted the same way.
  const body = c.req.raw.body;
  return { stream: body ? counted(body, limit, onTooLarge) : null, release: () => undefined };
}

function tooLarge(limit: number): RangeError {
  return new RangeError(`The request body is larger than ${limit} bytes`);
}

function fromIncoming(
  incoming: IncomingMessage,
  limit: number,
  onTooLarge: () => void,
): FunctionRequestBody {
  let detach = () => undefined as void;
  let finished = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (incoming.readableEnded) {
          finished = true;
          controller.close();
          return;
        }
        let size = 0;
        const onData = (chunk: Buffer | string) => {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          size += bytes.length;
          if (size > limit) {
            detach();
            onTooLarge();
            controller.error(tooLarge(limit));
            return;
          }
          controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
        };
        const onEnd = () => {
          detach();
          controller.close();
        };
        const onError = (error: Error) => {
          detach();
          controller.error(error);
        };
        const onClose = () => {
          if (incoming.readableEnded) return;
          detach();
          controller.error(new Error('The client closed the connection before the body ended'));
        };
        detach = () => {
          if (finished) return;
          finished = true;
          incoming.off('data', onData);
          incoming.off('end', onEnd);
          incoming.off('error', onError);
          incoming.off('close', onClose);
          incoming.pause();
        };
        incoming.on('data', onData);
        incoming.on('end', onEnd);
        incoming.on('error', onError);
        incoming.on('close', onClose);
      },
      pull() {
        if (!finished) incoming.resume();
      },
      cancel() {
        detach();
      },
    },
    { highWaterMark: QUEUE_BYTES, size: (chunk) => chunk.byteLength },
  );
  return {
    stream,
    release() {
      detach();
    },
  };
}

function counted(
  body: ReadableStream<Uint8Array>,
  limit: number,
  onTooLarge: () => void,
): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) {
          onTooLarge();
          controller.error(tooLarge(limit));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}
