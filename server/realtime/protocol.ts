/**
 * Phoenix channel frames, both serializations (contract §5.2):
 * vsn 1.0.0 sends JSON objects; vsn 2.0.0 sends JSON arrays, and user
 * broadcasts as binary frames (kind 3 from the client, kind 4 to it).
 */

export type ProtocolVersion = '1.0.0' | '2.0.0';

export const PROTOCOL_VERSIONS: readonly ProtocolVersion[] = ['1.0.0', '2.0.0'];

export interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A user broadcast's content: JSON, or bytes (a binary payload, vsn 2 only). */
export type BroadcastBody = { kind: 'json'; value: unknown } | { kind: 'binary'; value: Buffer };

/** A user broadcast as it travels between sockets. */
export interface BroadcastMessage {
  event: string;
  body: BroadcastBody;
  /** Metadata the client attached (vsn 2 binary frames), passed on as `meta`. */
  meta?: Record<string, unknown>;
}

export class FrameError extends Error {
  override name = 'FrameError';
}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const ENCODING_BINARY = 0;
const ENCODING_JSON = 1;

function refOf(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new FrameError(`${field} must be a string or null`);
}

function checkFrame(
  joinRef: unknown,
  ref: unknown,
  topic: unknown,
  event: unknown,
  payload: unknown,
): Frame {
  if (typeof topic !== 'string' || topic === '')
    throw new FrameError('topic must be a non-empty string');
  if (typeof event !== 'string' || event === '')
    throw new FrameError('event must be a non-empty string');
  return {
    joinRef: refOf(joinRef, 'join_ref'),
    ref: refOf(ref, 'ref'),
    topic,
    event,
    payload: payload ?? {},
  };
}

/** Reads one text frame; throws FrameError for anything that is not a frame of this version. */
export function decodeText(text: string, version: ProtocolVersion): Frame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new FrameError('frame is not valid JSON');
  }
  if (version === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) {
      throw new FrameError('frame must be an array [join_ref, ref, topic, event, payload]');
    }
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    return checkFrame(joinRef, ref, topic, event, payload);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FrameError('frame must be an object {topic, event, payload, ref, join_ref}');
  }
  const object = parsed as Record<string, unknown>;
  return checkFrame(object.join_ref, object.ref, object.topic, object.event, object.payload);
}

/**
 * Reads a binary frame (vsn 2 only): a user broadcast push (kind 3), returned
 * as a `broadcast` frame whose payload is the BroadcastMessage.
 */
export function decodeBinary(
  data: Buffer,
  version: ProtocolVersion,
): Frame & { payload: BroadcastMessage } {
  if (version !== '2.0.0') throw new FrameError('binary frames need vsn 2.0.0');
  if (data.length < 7) throw new FrameError('binary frame too short');
  const kind = data[0];
  if (kind !== KIND_USER_BROADCAST_PUSH) throw new FrameError(`unknown binary frame kind ${kind}`);
  const lengths = [data[1]!, data[2]!, data[3]!, data[4]!, data[5]!];
  const encoding = data[6];
  if (encoding !== ENCODING_BINARY && encoding !== ENCODING_JSON) {
    throw new FrameError(`unknown payload encoding ${encoding}`);
  }
  let offset = 7;
  const fields: string[] = [];
  for (const length of lengths) {
    if (offset + length > data.length)
      throw new FrameError('binary frame shorter than its header says');
    fields.push(data.toString('utf8', offset, offset + length));
    offset += length;
  }
  const [joinRef, ref, topic, userEvent, metadata] = fields as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (userEvent === '') throw new FrameError('broadcast event must not be empty');
  let meta: Record<string, unknown> | undefined;
  if (metadata !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(metadata);
    } catch {
      throw new FrameError('broadcast metadata is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new FrameError('broadcast metadata must be an object');
    }
    meta = parsed as Record<string, unknown>;
    // Passed on as received: it must fit the outgoing frame's one-byte length once re-encoded.
    if (Buffer.byteLength(JSON.stringify(meta)) > 255) {
      throw new FrameError('broadcast metadata is longer than 255 bytes once encoded');
    }
  }
  const bytes = data.subarray(offset);
  let body: BroadcastBody;
  if (encoding === ENCODING_JSON) {
    try {
      body = { kind: 'json', value: JSON.parse(bytes.toString('utf8')) };
    } catch {
      throw new FrameError('broadcast payload is not valid JSON');
    }
  } else {
    body = { kind: 'binary', value: Buffer.from(bytes) };
  }
  const frame = checkFrame(joinRef || null, ref || null, topic, 'broadcast', undefined);
  return { ...frame, payload: { event: userEvent, body, ...(meta ? { meta } : {}) } };
}

/** A server → client frame as text. */
export function encodeText(frame: Frame, version: ProtocolVersion): string {
  if (version === '2.0.0') {
    return JSON.stringify([frame.joinRef, frame.ref, frame.topic, frame.event, frame.payload]);
  }
  return JSON.stringify({
    topic: frame.topic,
    event: frame.event,
    payload: frame.payload,
    ref: frame.ref,
    join_ref: frame.joinRef,
  });
}

/** The `broadcast` payload object a JSON client receives. */
export function broadcastPayload(message: BroadcastMessage): Record<string, unknown> {
  return {
    type: 'broadcast',
    event: message.event,
    payload: message.body.value,
    ...(message.meta ? { meta: message.meta } : {}),
  };
}

function byteField(text: string, field: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > 255) throw new FrameError(`${field} is longer than 255 bytes`);
  return bytes;
}

/** A user broadcast to a vsn 2 client as a kind-4 binary frame (needed for binary payloads). */
export function encodeBroadcastBinary(topic: string, message: BroadcastMessage): Buffer {
  const topicBytes = byteField(topic, 'topic');
  const eventBytes = byteField(message.event, 'event');
  const metaBytes = byteField(message.meta ? JSON.stringify(message.meta) : '', 'metadata');
  const body =
    message.body.kind === 'binary'
      ? message.body.value
      : Buffer.from(JSON.stringify(message.body.value ?? null), 'utf8');
  const header = Buffer.from([
    KIND_USER_BROADCAST,
    topicBytes.length,
    eventBytes.length,
    metaBytes.length,
    message.body.kind === 'binary' ? ENCODING_BINARY : ENCODING_JSON,
  ]);
  return Buffer.concat([header, topicBytes, eventBytes, metaBytes, body]);
}

/** A `phx_reply` frame. */
export function reply(
  request: Pick<Frame, 'joinRef' | 'ref' | 'topic'>,
  status: 'ok' | 'error',
  response: unknown = {},
): Frame {
  return {
    joinRef: request.joinRef,
    ref: request.ref,
    topic: request.topic,
    event: 'phx_reply',
    payload: { status, response },
  };
}
