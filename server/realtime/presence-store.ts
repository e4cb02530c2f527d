import type { Database } from '../db/database';

/**
 * Who is present where, for every server on the database (`_realtime.presences`):
 * a client joining on one server sees those tracked on the others. Each server
 * marks itself alive every few seconds; the presences of a server that stopped
 * marking (killed, or cut off) are removed by the others, who tell their sockets.
 */

export interface PresenceMeta extends Record<string, unknown> {
  phx_ref: string;
}

export interface PresenceDiff {
  topic: string;
  joins: Record<string, { metas: PresenceMeta[] }>;
  leaves: Record<string, { metas: PresenceMeta[] }>;
}

export const SERVER_HEARTBEAT_MS = 5000;
/** A server not seen for this long is taken for gone. */
export const SERVER_GONE_AFTER_MS = 20_000;

interface PresenceRow {
  ref: string;
  topic: string;
  key: string;
  meta: PresenceMeta;
}

function addMeta(
  into: Record<string, { metas: PresenceMeta[] }>,
  key: string,
  meta: PresenceMeta,
): void {
  (into[key] ??= { metas: [] }).metas.push(meta);
}

export class PresenceStore {
  constructor(
    private readonly db: Database,
    readonly serverId: string,
  ) {}

  async register(): Promise<void> {
    if (this.db.kind === 'pglite') {
      // One server per embedded database: whatever an earlier run left is stale.
      await this.db.query('delete from _realtime.servers');
    }
    await this.db.query(
      `insert into _realtime.servers (id) values ($1)
       on conflict (id) do update set seen_at = now()`,
      [this.serverId],
    );
  }

  /** Marks this server alive and removes the presences of servers gone; returns their leaves. */
  async heartbeat(): Promise<PresenceDiff[]> {
    await this.db.query(
      `insert into _realtime.servers (id) values ($1)
       on conflict (id) do update set seen_at = now()`,
      [this.serverId],
    );
    const { rows } = await this.db.query<PresenceRow>(
      `with gone as (
         delete from _realtime.servers
         where id <> $1 and seen_at < now() - make_interval(secs => $2::int / 1000.0)
         returning id
       )
       delete from _realtime.presences where server_id in (select id from gone)
       returning ref, topic, key, meta`,
      [this.serverId, SERVER_GONE_AFTER_MS],
    );
    const byTopic = new Map<string, PresenceDiff>();
    for (const row of rows) {
      let diff = byTopic.get(row.topic);
      if (!diff) byTopic.set(row.topic, (diff = { topic: row.topic, joins: {}, leaves: {} }));
      addMeta(diff.leaves, row.key, row.meta);
    }
    return [...byTopic.values()];
  }

  async state(topic: string): Promise<Record<string, { metas: PresenceMeta[] }>> {
    const { rows } = await this.db.query<PresenceRow>(
      `select ref, topic, key, meta from _realtime.presences where topic = $1 order by updated_at, ref`,
      [topic],
    );
    const state: Record<string, { metas: PresenceMeta[] }> = {};
    for (const row of rows) addMeta(state, row.key, row.meta);
    return state;
  }

  /** Tracks (or replaces) one channel's presence; returns the diff to announce. */
  async track(
    topic: string,
    key: string,
    ref: string,
    previous: { ref: string; meta: PresenceMeta } | undefined,
    payload: Record<string, unknown>,
  ): Promise<{ meta: PresenceMeta; diff: PresenceDiff }> {
    const meta: PresenceMeta = {
      ...payload,
      phx_ref: ref,
      ...(previous ? { phx_ref_prev: previous.ref } : {}),
    };
    await this.db.transaction(async (tx) => {
      if (previous)
        await tx.query('delete from _realtime.presences where ref = $1', [previous.ref]);
      await tx.query(
        `insert into _realtime.presences (ref, server_id, topic, key, meta) values ($1, $2, $3, $4, $5)`,
        [ref, this.serverId, topic, key, JSON.stringify(meta)],
      );
    });
    const diff: PresenceDiff = { topic, joins: {}, leaves: {} };
    addMeta(diff.joins, key, meta);
    if (previous) addMeta(diff.leaves, key, previous.meta);
    return { meta, diff };
  }

  async untrack(
    topic: string,
    key: string,
    entry: { ref: string; meta: PresenceMeta },
  ): Promise<PresenceDiff> {
    await this.db.query('delete from _realtime.presences where ref = $1', [entry.ref]);
    const diff: PresenceDiff = { topic, joins: {}, leaves: {} };
    addMeta(diff.leaves, key, entry.meta);
    return diff;
  }

  async unregister(): Promise<void> {
    await this.db.query('delete from _realtime.servers where id = $1', [this.serverId]);
  }
}
