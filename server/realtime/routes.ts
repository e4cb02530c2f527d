import { Hono, type Context } from 'hono';
import { BodyReadError, BodyTooLargeError, readBodyBytes } from '../http/read-body';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import { MAX_TOPIC_BYTES, type Hub } from './hub';
import type { BroadcastMessage } from './protocol';
import { checkToken } from './tokens';
import type { ChannelAuth } from './types';

/**
 * The Realtime REST API (contract §5.4): `POST /api/broadcast` (a batch, what
 * `send()` uses before joining) and `POST /api/broadcast/<topic>/events/<event>`
 * (`httpSend()`), both 202. Private topics need the caller's write permission
 * (RLS on `realtime.messages`); a message refused there is dropped, as Supabase does.
 * The websocket itself is served by socket-server.ts on the HTTP server's `upgrade`.
 */

const MAX_BATCH = 100;
const MAX_NAME_LENGTH = 255;

function errorBody(c: Context, status: 400 | 401 | 404 | 413 | 422 | 503, error: string) {
  return c.json({ error, message: error }, status);
}

async function callerOf(c: Context, ring: KeyRing): Promise<ChannelAuth | string> {
  const header = c.req.header('authorization');
  const apikey = c.req.header('apikey');
  let token: string | undefined;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return 'The Authorization header must be "Bearer <token>"';
    token = match[1];
  }
  if (!token || token.startsWith('sb_')) token = apikey;
  if (!token) return 'API key is missing';
  const checked = await checkToken(ring, token);
  return checked.ok ? checked.auth : checked.message;
}

function validName(value: unknown, max = MAX_NAME_LENGTH): value is string {
  return typeof value === 'string' && value !== '' && Buffer.byteLength(value) <= max;
}

/** A channel name fits a joined topic (`realtime:<name>`, at most 255 bytes). */
function validTopic(value: unknown): value is string {
  return validName(value, MAX_TOPIC_BYTES - 'realtime:'.length);
}

export function createRealtimeRoutes(options: {
  /** The hub, or its start: a broadcast arriving before it has started waits for it. */
  hub: Hub | Promise<Hub>;
  ring: KeyRing;
  logger: Logger;
  maxMessageBytes: number;
}): Hono {
  const { ring, maxMessageBytes } = options;
  const started = Promise.resolve(options.hub);
  started.catch(() => undefined); // broadcasts are refused (503) when it failed
  const routes = new Hono();

  /** Sends through the hub once it has started; 503 when it could not start. */
  const broadcast = async (
    c: Context,
    caller: Parameters<Hub['broadcastFromApi']>[0],
    messages: Parameters<Hub['broadcastFromApi']>[1],
  ): Promise<Response> => {
    let hub: Hub;
    try {
      hub = await started;
    } catch {
      return errorBody(c, 503, 'Realtime is unavailable');
    }
    await hub.broadcastFromApi(caller, messages);
    return c.body(null, 202);
  };

  const readBody = async (c: Context, limit: number): Promise<Buffer | Response> => {
    try {
      return await readBodyBytes(c, limit);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        return errorBody(c, 413, `Payload size exceeds the limit of ${limit} bytes`);
      }
      if (error instanceof BodyReadError) return errorBody(c, 400, error.message);
      throw error;
    }
  };

  routes.post('/api/broadcast', async (c) => {
    const caller = await callerOf(c, ring);
    if (typeof caller === 'string') return errorBody(c, 401, caller);
    const body = await readBody(c, maxMessageBytes * 4);
    if (body instanceof Response) return body;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return errorBody(c, 400, 'The body is not valid JSON');
    }
    const list = (parsed as { messages?: unknown } | null)?.messages;
    if (!Array.isArray(list) || list.length === 0) {
      return errorBody(c, 422, 'messages: must be a non-empty list');
    }
    if (list.length > MAX_BATCH) return errorBody(c, 422, `messages: at most ${MAX_BATCH} at once`);
    const messages: Parameters<Hub['broadcastFromApi']>[1] = [];
    for (const [index, item] of list.entries()) {
      const message = item as Record<string, unknown> | null;
      if (typeof message !== 'object' || message === null) {
        return errorBody(c, 422, `messages[${index}]: must be an object`);
      }
      if (!validName(message.topic))
        return errorBody(c, 422, `messages[${index}].topic: can't be blank`);
      if (!validName(message.event))
        return errorBody(c, 422, `messages[${index}].event: can't be blank`);
      if (
        typeof message.payload !== 'object' ||
        message.payload === null ||
        Array.isArray(message.payload)
      ) {
        return errorBody(c, 422, `messages[${index}].payload: must be an object`);
      }
      if (Buffer.byteLength(JSON.stringify(message.payload)) > maxMessageBytes) {
        return errorBody(c, 422, `messages[${index}].payload: Payload size exceeds tenant limit`);
      }
      if (message.private !== undefined && typeof message.private !== 'boolean') {
        return errorBody(c, 422, `messages[${index}].private: must be true or false`);
      }
      messages.push({
        topic: message.topic,
        event: message.event,
        body: { kind: 'json', value: message.payload },
        isPrivate: message.private === true,
      });
    }
    return broadcast(c, caller, messages);
  });

  routes.post('/api/broadcast/:topic/events/:event', async (c) => {
    const caller = await callerOf(c, ring);
    if (typeof caller === 'string') return errorBody(c, 401, caller);
    const topic = c.req.param('topic');
    const event = c.req.param('event');
    if (!validTopic(topic) || !validName(event)) {
      return errorBody(c, 422, 'The topic must be 1 to 246 bytes and the event 1 to 255');
    }
    const privateParam = c.req.query('private');
    if (privateParam !== undefined && privateParam !== 'true' && privateParam !== 'false') {
      return errorBody(c, 422, 'private must be true or false');
    }
    const raw = await readBody(c, maxMessageBytes);
    if (raw instanceof Response) return raw;
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    let messageBody: BroadcastMessage['body'];
    if (type === 'application/json') {
      try {
        messageBody = { kind: 'json', value: JSON.parse(raw.toString('utf8')) };
      } catch {
        return errorBody(c, 400, 'The body is not valid JSON');
      }
    } else if (type === 'application/octet-stream') {
      messageBody = { kind: 'binary', value: raw };
    } else {
      return errorBody(c, 422, 'Content-Type must be application/json or application/octet-stream');
    }
    return broadcast(c, caller, [
      { topic, event, body: messageBody, isPrivate: privateParam === 'true' },
    ]);
  });

  routes.all('*', (c) => c.json({ error: 'Not Found', message: 'Route not found' }, 404));
  return routes;
}
