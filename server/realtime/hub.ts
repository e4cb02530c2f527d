import { randomUUID } from 'node:crypto';
import type { RealtimeConfig } from '../config';
import type { Database } from '../db/database';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import { ALL_ALLOWED, channelPolicies, type ChannelPolicies } from './authorization';
import { startBus, type Bus } from './bus';
import {
  PresenceStore,
  SERVER_HEARTBEAT_MS,
  type PresenceDiff,
  type PresenceMeta,
} from './presence-store';
import {
  broadcastPayload,
  encodeBroadcastBinary,
  encodeText,
  FrameError,
  reply,
  type BroadcastMessage,
  type Frame,
  type ProtocolVersion,
} from './protocol';
import { checkToken } from './tokens';
import type {
  ChangeSubscription,
  ChannelAuth,
  PostgresChangeParams,
  PostgresChangesService,
} from './types';

/**
 * Channels (contract §5.3–5.5): joins and leaves, broadcast, presence, token
 * refresh and expiry, and the postgres_changes bindings, for every socket of
 * this server; other servers on the same database are reached through the bus.
 */

/** One websocket, as the hub sees it (server/realtime/socket-server.ts makes them). */
export interface Connection {
  readonly id: string;
  readonly version: ProtocolVersion;
  /** The `apikey` the socket connected with: the token of joins that carry none. */
  readonly apikey: string;
  sendText(text: string): void;
  sendBinary(data: Buffer): void;
  close(code: number, reason: string): void;
}

interface PresenceEntry {
  ref: string;
  meta: PresenceMeta;
}

interface Channel {
  connection: Connection;
  /** `realtime:<name>`, as the client names it. */
  topic: string;
  /** `<name>`: what `realtime.topic()` returns and messages name. */
  name: string;
  /** Public and private channels of one name are separate topics, as on Supabase. */
  key: string;
  joinRef: string | null;
  state: 'joining' | 'joined' | 'closed';
  isPrivate: boolean;
  self: boolean;
  ack: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  presence?: PresenceEntry;
  token: string;
  auth: ChannelAuth;
  sessionId?: string;
  policies: ChannelPolicies;
  expiryTimer?: NodeJS.Timeout;
  changes?: ChangeSubscription;
  /** Why the channel was closed while its join was still running (the join's error reply). */
  closedReason?: string;
}

type BusMessage =
  | {
      type: 'broadcast';
      key: string;
      event: string;
      json?: unknown;
      binary?: string;
      meta?: Record<string, unknown>;
    }
  | { type: 'presence_diff'; key: string; diff: PresenceDiff };

export class JoinError extends Error {}

const TOPIC_PREFIX = 'realtime:';
export const MAX_TOPIC_BYTES = 255;
/** postgres_changes bindings one socket may hold across its channels (each costs work per change). */
export const MAX_BINDINGS_PER_SOCKET = 100;

/** Read again after an await: another frame or the socket may have closed the channel meanwhile. */
function isClosed(channel: { state: string }): boolean {
  return channel.state === 'closed';
}
const MAX_TIMER_MS = 2_147_483_647;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optional<T>(
  value: unknown,
  check: (value: unknown) => value is T,
  field: string,
): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (!check(value)) throw new JoinError(`InvalidJoinPayload: ${field} has the wrong type`);
  return value;
}

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isString = (value: unknown): value is string => typeof value === 'string';

interface JoinConfig {
  self: boolean;
  ack: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  isPrivate: boolean;
  postgresChanges: PostgresChangeParams[];
  accessToken: string | undefined;
}

function parseJoin(payload: unknown): JoinConfig {
  const body = isObject(payload) ? payload : {};
  const config = optional(body.config, isObject, 'config') ?? {};
  const broadcast = optional(config.broadcast, isObject, 'config.broadcast') ?? {};
  const presence = optional(config.presence, isObject, 'config.presence') ?? {};
  const changes = optional(config.postgres_changes, Array.isArray, 'config.postgres_changes') ?? [];
  if (changes.length > 100)
    throw new JoinError('InvalidJoinPayload: at most 100 postgres_changes bindings');
  const postgresChanges = changes.map((binding, index): PostgresChangeParams => {
    if (!isObject(binding)) {
      throw new JoinError(`InvalidJoinPayload: postgres_changes[${index}] must be an object`);
    }
    const field = (name: string) =>
      optional(binding[name], isString, `postgres_changes[${index}].${name}`);
    const event = field('event');
    const schema = field('schema');
    if (!event || !schema) {
      throw new JoinError(`InvalidJoinPayload: postgres_changes[${index}] needs event and schema`);
    }
    const table = field('table');
    const filter = field('filter');
    return {
      event,
      schema,
      ...(table !== undefined ? { table } : {}),
      ...(filter !== undefined ? { filter } : {}),
    };
  });
  return {
    self: optional(broadcast.self, isBoolean, 'config.broadcast.self') ?? false,
    ack: optional(broadcast.ack, isBoolean, 'config.broadcast.ack') ?? false,
    presenceKey: optional(presence.key, isString, 'config.presence.key') ?? '',
    presenceEnabled: optional(presence.enabled, isBoolean, 'config.presence.enabled') ?? false,
    isPrivate: optional(config.private, isBoolean, 'config.private') ?? false,
    postgresChanges,
    accessToken: optional(body.access_token, isString, 'access_token'),
  };
}

/** A session-scoped token carries `sb_…` (an opaque API key) or nothing: the socket's apikey applies. */
function tokenFor(connection: Connection, accessToken: string | undefined): string {
  return accessToken && !accessToken.startsWith('sb_') ? accessToken : connection.apikey;
}

export interface HubOptions {
  db: Database;
  ring: KeyRing;
  logger: Logger;
  config: RealtimeConfig;
  changes?: PostgresChangesService;
}

export class Hub {
  readonly serverId = randomUUID();
  private readonly topics = new Map<string, Set<Channel>>();
  private readonly connections = new Map<Connection, Map<string, Channel>>();
  private readonly sessions = new Map<string, Set<Channel>>();
  private readonly presence: PresenceStore;
  private bus: Bus<BusMessage> | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private unlistenSessions: (() => Promise<void>) | undefined;
  private closed = false;
  /** Presence removals under way: a stop waits for them, so their leaves reach the other servers. */
  private readonly untracking = new Set<Promise<unknown>>();

  constructor(private readonly options: HubOptions) {
    this.presence = new PresenceStore(options.db, this.serverId);
  }

  async start(): Promise<void> {
    const { db, logger } = this.options;
    await this.presence.register();
    this.bus = await startBus<BusMessage>({
      db,
      serverId: this.serverId,
      logger,
      onMessage: (message) => this.fromBus(message),
    });
    this.unlistenSessions = await db.listen(
      'realtime_session_ended',
      (sessionId) => this.sessionEnded(sessionId),
      // Sessions that ended while the notices could not arrive are found by asking.
      { onReconnect: () => void this.recheckSessions() },
    );
    this.heartbeatTimer = setInterval(() => {
      this.presence
        .heartbeat()
        .then((diffs) => {
          for (const diff of diffs) this.deliverPresenceDiff(diff.topic, diff);
        })
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'realtime: server heartbeat failed'),
        );
    }, SERVER_HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  /** Sockets, channels and topics now (for tests, benchmarks and logs). */
  stats(): { sockets: number; channels: number; topics: number } {
    let channels = 0;
    for (const map of this.connections.values()) channels += map.size;
    return { sockets: this.connections.size, channels, topics: this.topics.size };
  }

  connectionOpened(connection: Connection): void {
    this.connections.set(connection, new Map());
  }

  /** The socket is gone: its channels leave, its presences are removed. */
  connectionClosed(connection: Connection): void {
    const channels = this.connections.get(connection);
    this.connections.delete(connection);
    for (const channel of channels?.values() ?? []) this.removeChannel(channel);
  }

  private send(channel: Channel, frame: Frame): void {
    channel.connection.sendText(encodeText(frame, channel.connection.version));
  }

  /** `phx_close`: the channel is gone on the server (Phoenix sends it under the join's ref). */
  private sendClose(channel: Channel): void {
    this.send(channel, {
      joinRef: channel.joinRef,
      ref: channel.joinRef,
      topic: channel.topic,
      event: 'phx_close',
      payload: {},
    });
  }

  private push(channel: Channel, event: string, payload: unknown): void {
    this.send(channel, {
      joinRef: channel.joinRef,
      ref: null,
      topic: channel.topic,
      event,
      payload,
    });
  }

  /** One frame from a client (heartbeats are answered by the socket server). */
  async handle(connection: Connection, frame: Frame, binary?: BroadcastMessage): Promise<void> {
    if (frame.event === 'phx_join') return this.join(connection, frame);
    const channel = this.connections.get(connection)?.get(frame.topic);
    if (
      !channel ||
      channel.state === 'closed' ||
      (frame.joinRef && frame.joinRef !== channel.joinRef)
    ) {
      // Phoenix's answer to a push on a channel this socket has not joined.
      if (frame.ref !== null) {
        connection.sendText(
          encodeText(reply(frame, 'error', { reason: 'unmatched topic' }), connection.version),
        );
      }
      return;
    }
    switch (frame.event) {
      case 'phx_leave':
        this.send(channel, reply(frame, 'ok'));
        this.removeChannel(channel);
        this.sendClose(channel);
        return;
      case 'broadcast':
        return this.broadcastFromClient(channel, frame, binary);
      case 'presence':
        return this.presenceFromClient(channel, frame);
      case 'access_token':
        return this.refreshToken(channel, frame);
      default:
        if (frame.ref !== null) {
          this.send(channel, reply(frame, 'error', { reason: `Unknown event "${frame.event}"` }));
        }
    }
  }

  private joinFailed(connection: Connection, frame: Frame, reason: string): void {
    connection.sendText(encodeText(reply(frame, 'error', { reason }), connection.version));
  }

  private async join(connection: Connection, frame: Frame): Promise<void> {
    const { config, db, logger } = this.options;
    const channels = this.connections.get(connection);
    if (!channels) return;
    if (!frame.topic.startsWith(TOPIC_PREFIX) || frame.topic.length === TOPIC_PREFIX.length) {
      return this.joinFailed(connection, frame, 'unmatched topic');
    }
    if (Buffer.byteLength(frame.topic) > MAX_TOPIC_BYTES) {
      // Binary frames carry the topic's length in one byte.
      return this.joinFailed(
        connection,
        frame,
        `The topic must be at most ${MAX_TOPIC_BYTES} bytes`,
      );
    }
    const existing = channels.get(frame.topic);
    if (existing) {
      // A second join of one topic replaces the first, as in Phoenix.
      this.removeChannel(existing);
      this.sendClose(existing);
    }
    if (channels.size >= config.maxChannelsPerSocket) {
      return this.joinFailed(connection, frame, 'ChannelRateLimitReached: Too many channels');
    }
    let join: JoinConfig;
    try {
      join = parseJoin(frame.payload);
    } catch (error) {
      if (error instanceof JoinError) return this.joinFailed(connection, frame, error.message);
      throw error;
    }
    const name = frame.topic.slice(TOPIC_PREFIX.length);
    const token = tokenFor(connection, join.accessToken);
    const checked = await checkToken(this.options.ring, token);
    if (this.connections.get(connection) !== channels) return; // the socket closed meanwhile
    if (!checked.ok)
      return this.joinFailed(connection, frame, `InvalidJWTToken: ${checked.message}`);
    const bindingsHeld = [...channels.values()].reduce(
      (sum, held) => sum + (held.changes?.bindings.length ?? 0),
      0,
    );
    if (bindingsHeld + join.postgresChanges.length > MAX_BINDINGS_PER_SOCKET) {
      return this.joinFailed(
        connection,
        frame,
        `Too many postgres_changes bindings: at most ${MAX_BINDINGS_PER_SOCKET} per connection`,
      );
    }
    const channel: Channel = {
      connection,
      topic: frame.topic,
      name,
      key: `${join.isPrivate ? 'private' : 'public'}:${name}`,
      joinRef: frame.joinRef ?? frame.ref,
      state: 'joining',
      isPrivate: join.isPrivate,
      self: join.self,
      ack: join.ack,
      presenceKey: join.presenceKey || randomUUID(),
      presenceEnabled: join.presenceEnabled,
      token,
      auth: checked.auth,
      sessionId: checked.sessionId,
      policies: ALL_ALLOWED,
    };
    channels.set(frame.topic, channel);
    // Known by its session before the first await: a session ending during the join closes it.
    if (channel.sessionId) this.addToSession(channel, channel.sessionId);
    try {
      if (checked.sessionId && !(await this.sessionAlive(checked.sessionId))) {
        throw new JoinError('InvalidJWTToken: The session of this token has ended');
      }
      if (join.isPrivate) {
        channel.policies = await channelPolicies(db, channel.auth, name);
        if (!channel.policies.broadcast.read && !channel.policies.presence.read) {
          throw new JoinError(
            `Unauthorized: You do not have permissions to read from this Channel topic: ${name}`,
          );
        }
      }
      let bindings: unknown[] = [];
      if (join.postgresChanges.length > 0) {
        if (!this.options.changes) throw new JoinError('postgres_changes are not available');
        channel.changes = await this.options.changes.subscribe({
          topic: name,
          params: join.postgresChanges,
          auth: () => channel.auth,
          deliver: (payload) => {
            if (channel.state === 'joined') this.push(channel, 'postgres_changes', payload);
          },
        });
        bindings = channel.changes.bindings;
      }
      if (
        channels.get(frame.topic) !== channel ||
        isClosed(channel) ||
        this.connections.get(connection) !== channels
      ) {
        // The socket closed, or the session ended, while joining.
        channel.changes?.close();
        throw new JoinError(channel.closedReason ?? 'The channel was closed while joining');
      }
      channel.state = 'joined';
      let members = this.topics.get(channel.key);
      if (!members) this.topics.set(channel.key, (members = new Set()));
      members.add(channel);
      this.scheduleExpiry(channel, checked.expiresAt);
      this.send(channel, reply(frame, 'ok', { postgres_changes: bindings }));
      if (channel.changes) {
        this.push(channel, 'system', { ...channel.changes.system, channel: name });
      }
      if (channel.presenceEnabled && channel.policies.presence.read) {
        this.push(channel, 'presence_state', await this.presence.state(channel.key));
      }
    } catch (error) {
      if (channels.get(frame.topic) === channel) channels.delete(frame.topic);
      channel.state = 'closed';
      channel.changes?.close();
      if (channel.sessionId) this.removeFromSession(channel, channel.sessionId);
      if (error instanceof JoinError) return this.joinFailed(connection, frame, error.message);
      logger.error({ err: error, topic: frame.topic }, 'realtime: join failed');
      return this.joinFailed(connection, frame, 'Unknown Error on Channel');
    }
  }

  private async sessionAlive(sessionId: string): Promise<boolean> {
    const { rows } = await this.options.db.query(
      'select 1 from auth.sessions where id = $1 and (not_after is null or not_after > now())',
      [sessionId],
    );
    return rows.length > 0;
  }

  private scheduleExpiry(channel: Channel, expiresAt: number): void {
    clearTimeout(channel.expiryTimer);
    const remaining = Math.max(0, expiresAt - Date.now());
    const delay = Math.min(remaining, MAX_TIMER_MS);
    channel.expiryTimer = setTimeout(() => {
      if (remaining > MAX_TIMER_MS) return this.scheduleExpiry(channel, expiresAt); // not yet
      const ago = Math.max(0, Math.floor((Date.now() - expiresAt) / 1000));
      this.shutdown(channel, `Token has expired ${ago} seconds ago`);
    }, delay);
    channel.expiryTimer.unref();
  }

  /** Ends a channel with a system message saying why, then `phx_close` (Supabase's shutdown_response). */
  shutdown(channel: Channel, message: string): void {
    if (channel.state === 'closed') return;
    this.push(channel, 'system', {
      extension: 'system',
      status: 'error',
      message,
      channel: channel.name,
    });
    this.removeChannel(channel);
    this.sendClose(channel);
  }

  private removeChannel(channel: Channel): void {
    if (channel.state === 'closed') return;
    channel.state = 'closed';
    clearTimeout(channel.expiryTimer);
    channel.changes?.close();
    const channels = this.connections.get(channel.connection);
    if (channels?.get(channel.topic) === channel) channels.delete(channel.topic);
    const members = this.topics.get(channel.key);
    members?.delete(channel);
    if (members?.size === 0) this.topics.delete(channel.key);
    if (channel.sessionId) this.removeFromSession(channel, channel.sessionId);
    if (channel.presence) {
      const entry = channel.presence;
      channel.presence = undefined;
      const removal: Promise<unknown> = this.presence
        .untrack(channel.key, channel.presenceKey, entry)
        .then((diff) => this.announcePresence(channel.key, diff))
        .catch((error: unknown) =>
          this.options.logger.warn({ err: error }, 'realtime: presence could not be removed'),
        )
        .finally(() => this.untracking.delete(removal));
      this.untracking.add(removal);
    }
  }

  private addToSession(channel: Channel, sessionId: string): void {
    let set = this.sessions.get(sessionId);
    if (!set) this.sessions.set(sessionId, (set = new Set()));
    set.add(channel);
  }

  private removeFromSession(channel: Channel, sessionId: string): void {
    const set = this.sessions.get(sessionId);
    set?.delete(channel);
    if (set?.size === 0) this.sessions.delete(sessionId);
  }

  private async recheckSessions(): Promise<void> {
    const ids = [...this.sessions.keys()];
    if (ids.length === 0) return;
    try {
      const { rows } = await this.options.db.query<{ id: string }>(
        `select id::text from auth.sessions
         where id = any($1::uuid[]) and (not_after is null or not_after > now())`,
        [ids],
      );
      const alive = new Set(rows.map((row) => row.id));
      for (const id of ids) if (!alive.has(id)) this.sessionEnded(id);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'realtime: cannot recheck sessions');
    }
  }

  private sessionEnded(sessionId: string): void {
    const message = 'Token has been revoked: its session has ended';
    for (const channel of [...(this.sessions.get(sessionId) ?? [])]) {
      if (channel.state === 'joining') {
        // Its join answers with the reason instead of succeeding.
        channel.closedReason = `InvalidJWTToken: ${message}`;
        this.removeChannel(channel);
      } else {
        this.shutdown(channel, message);
      }
    }
  }

  private async refreshToken(channel: Channel, frame: Frame): Promise<void> {
    const accessToken = isObject(frame.payload) ? frame.payload.access_token : undefined;
    if (
      typeof accessToken !== 'string' ||
      accessToken.startsWith('sb_') ||
      accessToken === channel.token
    ) {
      return;
    }
    const checked = await checkToken(this.options.ring, accessToken);
    if (channel.state === 'closed') return;
    if (!checked.ok) return this.shutdown(channel, checked.message);
    const previousSession = channel.sessionId;
    if (checked.sessionId && checked.sessionId !== previousSession) {
      // Known by the new session before the await: its end closes the channel from here on.
      channel.sessionId = checked.sessionId;
      this.addToSession(channel, checked.sessionId);
      if (previousSession) this.removeFromSession(channel, previousSession);
    }
    if (checked.sessionId && !(await this.sessionAlive(checked.sessionId))) {
      return this.shutdown(channel, 'Token has been revoked: its session has ended');
    }
    const previous = channel.policies;
    if (channel.isPrivate) {
      const policies = await channelPolicies(this.options.db, checked.auth, channel.name);
      if (
        (previous.broadcast.read && !policies.broadcast.read) ||
        (previous.presence.read && !policies.presence.read) ||
        (!policies.broadcast.read && !policies.presence.read)
      ) {
        return this.shutdown(
          channel,
          `You no longer have permission to read from this Channel topic: ${channel.name}`,
        );
      }
      channel.policies = policies;
    }
    if (isClosed(channel)) return; // ended while the policies were read
    if (channel.sessionId && channel.sessionId !== checked.sessionId) {
      this.removeFromSession(channel, channel.sessionId); // the new token has no session
    }
    channel.token = accessToken;
    channel.auth = checked.auth;
    channel.sessionId = checked.sessionId;
    this.scheduleExpiry(channel, checked.expiresAt);
  }

  private broadcastFromClient(channel: Channel, frame: Frame, binary?: BroadcastMessage): void {
    const payload = frame.payload;
    let message: BroadcastMessage;
    if (binary) {
      message = binary; // a vsn 2 binary frame
    } else if (isObject(payload) && typeof payload.event === 'string' && payload.event !== '') {
      message = { event: payload.event, body: { kind: 'json', value: payload.payload ?? {} } };
    } else {
      if (frame.ref !== null) {
        this.send(channel, reply(frame, 'error', { reason: 'A broadcast needs an event name' }));
      }
      return;
    }
    if (channel.isPrivate && !channel.policies.broadcast.write) {
      if (channel.ack && frame.ref !== null) {
        this.send(
          channel,
          reply(frame, 'error', {
            reason: `Unauthorized: You do not have permissions to write to this Channel topic: ${channel.name}`,
          }),
        );
      }
      return;
    }
    this.publishBroadcast(channel.key, message, channel);
    if (channel.ack && frame.ref !== null) this.send(channel, reply(frame, 'ok'));
  }

  /** Sends a broadcast to every channel of the topic, here and on the other servers. */
  publishBroadcast(key: string, message: BroadcastMessage, from?: Channel): void {
    this.deliverBroadcast(key, message, from);
    this.bus?.publish({
      type: 'broadcast',
      key,
      event: message.event,
      ...(message.body.kind === 'binary'
        ? { binary: message.body.value.toString('base64') }
        : { json: message.body.value }),
      ...(message.meta ? { meta: message.meta } : {}),
    });
  }

  private deliverBroadcast(key: string, message: BroadcastMessage, from?: Channel): void {
    const members = this.topics.get(key);
    if (!members) return;
    // Encoded once per protocol version, not once per socket.
    const encoded = new Map<ProtocolVersion, string | Buffer | null>();
    const encode = (channel: Channel): string | Buffer | null => {
      const version = channel.connection.version;
      if (encoded.has(version)) return encoded.get(version)!;
      let data: string | Buffer | null;
      if (message.body.kind === 'binary') {
        // JSON frames cannot carry bytes: vsn 1.0.0 clients do not receive binary payloads.
        try {
          data = version === '2.0.0' ? encodeBroadcastBinary(channel.topic, message) : null;
        } catch (error) {
          if (!(error instanceof FrameError)) throw error;
          this.options.logger.warn(
            { err: error, topic: channel.topic },
            'realtime: a broadcast could not be framed',
          );
          data = null;
        }
      } else {
        data = encodeText(
          {
            joinRef: null,
            ref: null,
            topic: channel.topic,
            event: 'broadcast',
            payload: broadcastPayload(message),
          },
          version,
        );
      }
      encoded.set(version, data);
      return data;
    };
    for (const channel of members) {
      if (channel === from && !channel.self) continue;
      if (channel.state !== 'joined' || !channel.policies.broadcast.read) continue;
      const data = encode(channel);
      if (data === null) continue;
      if (typeof data === 'string') channel.connection.sendText(data);
      else channel.connection.sendBinary(data);
    }
  }

  private async presenceFromClient(channel: Channel, frame: Frame): Promise<void> {
    const payload = isObject(frame.payload) ? frame.payload : {};
    const answer = (status: 'ok' | 'error', response: unknown = {}) => {
      if (frame.ref !== null) this.send(channel, reply(frame, status, response));
    };
    if (channel.isPrivate && !channel.policies.presence.write) {
      return answer('error', {
        reason: `Unauthorized: You do not have permissions to track presence on this Channel topic: ${channel.name}`,
      });
    }
    if (payload.event === 'track') {
      const meta = payload.payload ?? {};
      if (!isObject(meta))
        return answer('error', { reason: 'Presence track payload must be a map' });
      channel.presenceEnabled = true;
      const ref = randomUUID();
      const previous = channel.presence;
      const { meta: stored, diff } = await this.presence.track(
        channel.key,
        channel.presenceKey,
        ref,
        previous,
        meta,
      );
      if (channel.state === 'closed') {
        // Left while the row was written: take it back.
        const undo = await this.presence.untrack(channel.key, channel.presenceKey, {
          ref,
          meta: stored,
        });
        this.announcePresence(channel.key, { ...undo, joins: {} });
        return;
      }
      channel.presence = { ref, meta: stored };
      this.announcePresence(channel.key, diff);
      return answer('ok');
    }
    if (payload.event === 'untrack') {
      const entry = channel.presence;
      channel.presence = undefined;
      if (entry) {
        this.announcePresence(
          channel.key,
          await this.presence.untrack(channel.key, channel.presenceKey, entry),
        );
      }
      return answer('ok');
    }
    return answer('error', { reason: 'Presence event must be "track" or "untrack"' });
  }

  private announcePresence(key: string, diff: PresenceDiff): void {
    this.deliverPresenceDiff(key, diff);
    this.bus?.publish({ type: 'presence_diff', key, diff });
  }

  private deliverPresenceDiff(key: string, diff: PresenceDiff): void {
    const members = this.topics.get(key);
    if (!members) return;
    const payload = { joins: diff.joins, leaves: diff.leaves };
    for (const channel of members) {
      if (
        channel.state !== 'joined' ||
        !channel.presenceEnabled ||
        !channel.policies.presence.read
      ) {
        continue;
      }
      this.send(channel, {
        joinRef: null,
        ref: null,
        topic: channel.topic,
        event: 'presence_diff',
        payload,
      });
    }
  }

  private fromBus(message: BusMessage): void {
    if (message.type === 'broadcast') {
      const body: BroadcastMessage['body'] =
        message.binary !== undefined
          ? { kind: 'binary', value: Buffer.from(message.binary, 'base64') }
          : { kind: 'json', value: message.json };
      this.deliverBroadcast(message.key, {
        event: message.event,
        body,
        ...(message.meta ? { meta: message.meta } : {}),
      });
    } else {
      this.deliverPresenceDiff(message.key, message.diff);
    }
  }

  /** Broadcasts from the REST API (`/api/broadcast`): private topics need the caller's write permission. */
  async broadcastFromApi(
    auth: ChannelAuth,
    messages: {
      topic: string;
      event: string;
      body: BroadcastMessage['body'];
      isPrivate: boolean;
    }[],
  ): Promise<void> {
    const allowed = new Map<string, boolean>();
    for (const message of messages) {
      const key = `${message.isPrivate ? 'private' : 'public'}:${message.topic}`;
      if (message.isPrivate) {
        let ok = allowed.get(message.topic);
        if (ok === undefined) {
          ok = (await channelPolicies(this.options.db, auth, message.topic)).broadcast.write;
          allowed.set(message.topic, ok);
        }
        if (!ok) continue;
      }
      this.publishBroadcast(key, { event: message.event, body: message.body });
    }
  }

  /** Stops: every presence of this server is removed (and announced), the bus and listeners stop. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeatTimer);
    const pending: Promise<unknown>[] = [];
    for (const channels of this.connections.values()) {
      for (const channel of channels.values()) {
        if (channel.presence) {
          const entry = channel.presence;
          channel.presence = undefined;
          pending.push(
            this.presence
              .untrack(channel.key, channel.presenceKey, entry)
              .then((diff) => this.bus?.publish({ type: 'presence_diff', key: channel.key, diff })),
          );
        }
      }
    }
    await Promise.allSettled([...pending, ...this.untracking]);
    await this.presence.unregister().catch(() => undefined);
    await this.bus?.stop();
    await this.unlistenSessions?.();
    await this.options.changes?.stop();
  }
}
