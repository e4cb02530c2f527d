import { yieldToEventLoop, type Database } from '../db/database';
import type { Logger } from '../logger';
import { htmlFromLayout } from './layout';
import { createSmtpTransport, type SmtpTransport } from './smtp';

export { htmlFromLayout };

/**
 * Delivers public.outbox_messages. Email goes out over SMTP when `SMTP_URL` is
 * set, else it is written to the log (status `logged`) for a developer to act
 * on. SMS goes nowhere until an SMS provider exists: with `SMS_PROVIDER=log`
 * (development and tests) its text, code included, is written to the log;
 * otherwise only that it was not sent (a code in the log would sign in whoever
 * reads it).
 *
 * Claiming: a short transaction selects the due rows `for update skip locked`
 * and moves their `next_attempt_at` a lease ahead, then commits. Other servers
 * skip the rows while they are locked and, once committed, because they are no
 * longer due. Sending happens outside the transaction (an SMTP round trip must
 * not hold a connection, nor PGlite's single one), and each row is marked as it
 * completes. Delivery is at least once: if the process dies between sending
 * and marking, the lease runs out and the message is sent once more (with the
 * same Message-ID). A message is never deleted: it ends `sent`, `logged`, or
 * `failed` after MAX_ATTEMPTS.
 *
 * Runs are triggered by NOTIFY on the `outbox` channel (the insert trigger),
 * by `wake()`, and by a poll timer; one batch runs at a time, and the loop
 * yields to the event loop between batches.
 */

export interface MailSenderOptions {
  db: Database;
  smtpUrl: string | undefined;
  /** `log`: texts are written to the log, code and all (development and tests only). */
  smsProvider?: 'log' | undefined;
  from: string;
  logger: Logger;
  /** How often to look for due messages without being woken (retries, missed notifications). */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Housekeeping run from the same timer, at most every `maintenanceIntervalMs` (e.g. pruning). */
  maintenance?: () => Promise<void>;
  maintenanceIntervalMs?: number;
}

export interface MailSender {
  /** Looks for due messages now (cheap to call often; runs coalesce). */
  wake(): void;
  /** Waits for the message in flight, hands back the rest of its batch, clears timers and unlistens. */
  stop(): Promise<void>;
}

export const MAX_ATTEMPTS = 10;
/** Seconds before the next try after the 1st, 2nd, … failure; the last repeats. */
const BACKOFF_SECONDS = [30, 120, 600, 1800, 3600, 7200];
/** How long a claimed message is reserved; longer than a batch can take (10 × the SMTP timeouts). */
const LEASE_SECONDS = 900;
const MAX_ERROR_LENGTH = 2000;

export function retryDelaySeconds(failures: number): number {
  return BACKOFF_SECONDS[Math.min(Math.max(failures, 1), BACKOFF_SECONDS.length) - 1]!;
}

interface OutboxRow {
  id: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  template: string;
  attachments: unknown;
  metadata: Record<string, unknown> | null;
  attempts: number;
}

type Outcome = 'sent' | 'logged';

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

function toAttachments(value: unknown) {
  if (!Array.isArray(value)) return [];
  return value.map((entry: unknown, index) => {
    const item = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<
      string,
      unknown
    >;
    if (typeof item.contentBase64 !== 'string') {
      throw new Error(`attachment ${index + 1} has no contentBase64`);
    }
    return {
      filename: typeof item.filename === 'string' ? item.filename : `attachment-${index + 1}`,
      contentType:
        typeof item.contentType === 'string' ? item.contentType : 'application/octet-stream',
      contentBase64: item.contentBase64,
    };
  });
}

/** An SMTP 5xx reply (e.g. 550 no such mailbox) will not change on a retry; 4xx and network errors may. */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export function startMailSender(options: MailSenderOptions): MailSender {
  const { db, from } = options;
  const logger = options.logger.child({ component: 'mail' });
  const pollIntervalMs = options.pollIntervalMs ?? 10_000;
  const batchSize = options.batchSize ?? 10;
  const maintenanceIntervalMs = options.maintenanceIntervalMs ?? 60 * 60_000;
  const smtp: SmtpTransport | undefined = options.smtpUrl
    ? createSmtpTransport(options.smtpUrl, from)
    : undefined;

  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let lastMaintenance = 0;
  let stopping: Promise<void> | undefined;

  logger.debug(
    smtp ? `delivering email through ${smtp.target}` : 'no SMTP_URL: email is written to the log',
  );

  async function claimBatch(): Promise<OutboxRow[]> {
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<OutboxRow>(
        `select id, channel, recipient, subject, body_text, body_html, template, attachments,
                metadata, attempts
         from public.outbox_messages
         where status = 'pending' and next_attempt_at <= now()
         order by created_at, id
         limit $1
         for update skip locked`,
        [batchSize],
      );
      if (rows.length > 0) {
        await tx.query(
          `update public.outbox_messages set next_attempt_at = now() + make_interval(secs => $2)
           where id = any($1::uuid[])`,
          [rows.map((row) => row.id), LEASE_SECONDS],
        );
      }
      return rows;
    });
  }

  function logMessage(row: OutboxRow): void {
    const link = typeof row.metadata?.link === 'string' ? row.metadata.link : undefined;
    const fields = {
      outbox_id: row.id,
      channel: row.channel,
      to: row.recipient,
      subject: row.subject ?? undefined,
      template: row.template,
      link,
    };
    if (row.channel === 'sms' && options.smsProvider !== 'log') {
      logger.warn(fields, `SMS not sent (no SMS provider configured), text withheld`);
      return;
    }
    const heading =
      row.channel === 'sms'
        ? `SMS not sent (SMS_PROVIDER=log), logged instead\nTo: ${row.recipient}`
        : `email not sent (no SMTP_URL set), logged instead\nTo: ${row.recipient}\nSubject: ${row.subject ?? ''}`;
    logger.info(fields, `${heading}\n\n${row.body_text}`);
  }

  async function deliver(row: OutboxRow): Promise<Outcome> {
    if (row.channel === 'email' && smtp) {
      await smtp.send({
        id: row.id,
        to: row.recipient,
        subject: row.subject ?? '',
        text: row.body_text,
        html: row.body_html ?? htmlFromLayout(row.metadata),
        attachments: toAttachments(row.attachments),
      });
      return 'sent';
    }
    logMessage(row);
    return 'logged';
  }

  async function markDone(row: OutboxRow, outcome: Outcome): Promise<void> {
    await db.query(
      `update public.outbox_messages
       set status = $2, attempts = attempts + 1, last_error = null,
           sent_at = case when $2 = 'sent' then now() end
       where id = $1`,
      [row.id, outcome],
    );
  }

  async function markFailed(row: OutboxRow, error: unknown): Promise<void> {
    const failures = row.attempts + 1;
    const isFinal = failures >= MAX_ATTEMPTS || isPermanentFailure(error);
    const delay = retryDelaySeconds(failures);
    const message = errorText(error);
    await db.query(
      `update public.outbox_messages
       set attempts = attempts + 1, last_error = $2, status = $3,
           next_attempt_at = now() + make_interval(secs => $4)
       where id = $1`,
      [row.id, message, isFinal ? 'failed' : 'pending', delay],
    );
    const fields = {
      outbox_id: row.id,
      to: row.recipient,
      template: row.template,
      attempts: failures,
    };
    if (isFinal) {
      logger.error(
        { ...fields, err: error },
        `giving up on a message after ${failures} attempt${failures === 1 ? '' : 's'}`,
      );
    } else {
      logger.warn(
        { ...fields, err: error, retryInSeconds: delay },
        `could not deliver a message: retrying in ${delay} s`,
      );
    }
  }

  /** One batch; true when it was full (more may be due). */
  async function runBatch(): Promise<boolean> {
    const rows = await claimBatch();
    for (const [index, row] of rows.entries()) {
      if (stopped) {
        // Hand the rest back so another server (or the next start) sends them now.
        const rest = rows.slice(index).map((pending) => pending.id);
        await db.query(
          `update public.outbox_messages set next_attempt_at = now()
           where id = any($1::uuid[]) and status = 'pending'`,
          [rest],
        );
        return false;
      }
      let outcome: Outcome;
      try {
        outcome = await deliver(row);
      } catch (error) {
        await markFailed(row, error);
        continue;
      }
      // A failure here leaves the row pending under its lease: sent again later, never lost.
      await markDone(row, outcome);
      if (outcome === 'sent') {
        logger.info({ outbox_id: row.id, to: row.recipient, template: row.template }, 'email sent');
      }
    }
    return rows.length === batchSize;
  }

  async function maintain(): Promise<void> {
    if (!options.maintenance || Date.now() - lastMaintenance < maintenanceIntervalMs) return;
    lastMaintenance = Date.now();
    try {
      await options.maintenance();
    } catch (error) {
      logger.error({ err: error }, 'outbox housekeeping failed');
    }
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      // Lets the caller that woke us finish (and commit) first; PGlite shares one connection.
      await yieldToEventLoop();
      if (stopped) return;
      await maintain();
      if (stopped) return;
      try {
        if (await runBatch()) again = true;
      } catch (error) {
        // Database unreachable or similar: the poll timer tries again.
        logger.error({ err: error }, 'mail sender: could not process the outbox');
        again = false;
        return;
      }
    } while (again && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = loop()
      .catch((error: unknown) => logger.error({ err: error }, 'mail sender failed'))
      .finally(() => {
        running = undefined;
        if (again) wake(); // woken between the last check and now
      });
  }

  const listening = db
    .listen('outbox', () => wake(), { onReconnect: () => wake() })
    .catch((error: unknown) => {
      logger.warn({ err: error }, 'mail sender: cannot listen for new messages, polling only');
      return undefined;
    });
  const timer = setInterval(wake, pollIntervalMs);
  timer.unref();
  wake(); // whatever was left from before this start

  return {
    wake,
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearInterval(timer);
        await running;
        const unlisten = await listening;
        await unlisten?.().catch((error: unknown) =>
          logger.warn({ err: error }, 'mail sender: unlisten failed'),
        );
        smtp?.close();
      })();
      return stopping;
    },
  };
}
