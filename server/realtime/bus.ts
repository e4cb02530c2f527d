import type { Database } from '../db/database';
import type { Logger } from '../logger';

/**
 * Messages between servers that share one PostgreSQL database (broadcasts and
 * presence changes), through LISTEN/NOTIFY. A server delivers its own messages
 * to its own sockets directly and ignores them when they come back, so each
 * socket receives each message exactly once. A message too large for one
 * notice (PostgreSQL's limit is 8,000 bytes) is stored in `_realtime.bus` and
 * the notice carries its id. The embedded database has one server only: there
 * the bus is local and sends nothing.
 */

export const BUS_CHANNEL = 'realtime_bus';
const MAX_NOTICE_BYTES = 7900;
const BUS_ROW_TTL = '1 minute';

export interface BusEnvelope<Message> {
  origin: string;
  message: Message;
}

export interface Bus<Message> {
  publish(message: Message): void;
  stop(): Promise<void>;
}

export async function startBus<Message>(options: {
  db: Database;
  serverId: string;
  logger: Logger;
  onMessage: (message: Message) => void;
}): Promise<Bus<Message>> {
  const { db, serverId, logger, onMessage } = options;
  if (db.kind === 'pglite') {
    return { publish: () => undefined, stop: async () => undefined };
  }
  // Notices are handled one after another, in the order they were committed.
  let receiving: Promise<void> = Promise.resolve();
  const receive = (notice: string) => {
    receiving = receiving
      .then(async () => {
        let text = notice;
        if (notice.startsWith('#')) {
          const { rows } = await db.query<{ body: string }>(
            'select body from _realtime.bus where id = $1',
            [notice.slice(1)],
          );
          if (!rows[0]) return;
          text = rows[0].body;
        }
        const envelope = JSON.parse(text) as BusEnvelope<Message>;
        if (envelope.origin === serverId) return;
        onMessage(envelope.message);
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'realtime: a bus message was lost'));
  };
  const unlisten = await db.listen(BUS_CHANNEL, receive);

  let sending: Promise<void> = Promise.resolve();
  let lastPrune = Date.now();
  return {
    publish(message) {
      const text = JSON.stringify({ origin: serverId, message } satisfies BusEnvelope<Message>);
      sending = sending
        .then(async () => {
          if (Buffer.byteLength(text) <= MAX_NOTICE_BYTES) {
            await db.query('select pg_notify($1, $2)', [BUS_CHANNEL, text]);
            return;
          }
          await db.query(
            `with stored as (insert into _realtime.bus (body) values ($2) returning id)
             select pg_notify($1, '#' || id) from stored`,
            [BUS_CHANNEL, text],
          );
          if (Date.now() - lastPrune > 30_000) {
            lastPrune = Date.now();
            await db.query(
              `delete from _realtime.bus where created_at < now() - interval '${BUS_ROW_TTL}'`,
            );
          }
        })
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'realtime: a message could not reach the other servers'),
        );
    },
    async stop() {
      await sending;
      await unlisten();
    },
  };
}
