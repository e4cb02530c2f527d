import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database';
import { clientFor, latestMessage, uniqueEmail } from '../testing/clients';
import { captureLogger } from '../testing/capture-logger';
import { startTestServer, type TestServer } from '../testing/harness';
import { queueEmail, queueSms } from './outbox';
import { MAX_ATTEMPTS, startMailSender } from './sender';

/**
 * The outbox delivered for real: a local SMTP sink receives what the server
 * sends, and can refuse recipients to exercise retries.
 */

interface Sink {
  port: number;
  received: ParsedMail[];
  /** When set, every recipient is refused with this error … */
  refuse: string | undefined;
  /** … and this reply code (450, temporary, unless set). */
  refuseCode: number | undefined;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const received: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    // Plain SMTP only: no STARTTLS, so no self-signed certificate to trust.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!sink.refuse) return callback();
      callback(Object.assign(new Error(sink.refuse), { responseCode: sink.refuseCode ?? 450 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const sink: Sink = {
    port: (smtp.server.address() as AddressInfo).port,
    received,
    refuse: undefined,
    refuseCode: undefined,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
  return sink;
}

interface Row {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
  retry_in_seconds: number;
}

async function row(db: Database, id: string): Promise<Row> {
  const { rows } = await db.query<Row>(
    `select id, status, attempts, last_error, sent_at,
            extract(epoch from next_attempt_at - now())::float8 as retry_in_seconds
     from public.outbox_messages where id = $1`,
    [id],
  );
  if (!rows[0]) throw new Error(`outbox row ${id} is gone`);
  return rows[0];
}

const eventually = { timeout: 10_000, interval: 25 };

function receivedBy(sink: Sink, email: string): ParsedMail[] {
  return sink.received.filter((mail) =>
    (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) =>
      to?.value.some((address) => address.address?.toLowerCase() === email.toLowerCase()),
    ),
  );
}

async function queue(
  db: Database,
  message: Omit<Parameters<typeof queueEmail>[1], 'template'> & { template?: string },
) {
  return db.transaction((tx) => queueEmail(tx, { template: 'test.message', ...message }));
}

describe('with SMTP configured', () => {
  let sink: Sink;
  let server: TestServer;
  let log: ReturnType<typeof captureLogger>;
  const queued: string[] = [];

  beforeAll(async () => {
    sink = await startSink();
    log = captureLogger();
    server = await startTestServer({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
        SMTP_FROM: 'Cervana Test <no-reply@test.cervana.ai>',
        MAILER_MAX_FREQUENCY: '0',
      },
      logger: log.logger,
    });
  });
  afterAll(async () => {
    // Nothing the sender touched was ever deleted.
    if (server && queued.length > 0) {
      const { rows } = await server.db.query<{ count: number }>(
        `select count(*)::int as count from public.outbox_messages where id = any($1::uuid[])`,
        [queued],
      );
      expect(rows[0]?.count).toBe(queued.length);
    }
    await server?.close();
    await sink?.close();
  });

  it('delivers the sign-up confirmation with subject, text and html, and marks it sent', async () => {
    const email = uniqueEmail('smtp');
    const { error } = await clientFor(server).auth.signUp({
      email,
      password: 'correct horse battery staple',
    });
    expect(error).toBeNull();
    const message = await latestMessage(server.db, email, 'auth.confirm_signup');
    queued.push(message.id);

    await vi.waitFor(() => expect(receivedBy(sink, email)).toHaveLength(1), eventually);
    const [mail] = receivedBy(sink, email);
    expect(mail!.subject).toBe('Confirm your Cervana account');
    expect(mail!.from?.text).toBe('"Cervana Test" <no-reply@test.cervana.ai>');
    expect(mail!.text).toContain(message.metadata.link);
    expect(mail!.html).toContain('Confirm my email');
    expect(mail!.html).toContain(message.metadata.link!.replaceAll('&', '&amp;'));
    expect(mail!.messageId).toBe(`<${message.id}@test.cervana.ai>`);

    await vi.waitFor(
      async () => expect(await row(server.db, message.id)).toMatchObject({ status: 'sent' }),
      eventually,
    );
    const delivered = await row(server.db, message.id);
    expect(delivered).toMatchObject({ attempts: 1, last_error: null });
    expect(delivered.sent_at).toEqual(expect.any(String));
  });

  it('keeps a refused message pending with backoff, then delivers it when the server accepts', async () => {
    sink.refuse = 'Mailbox temporarily unavailable';
    const email = uniqueEmail('retry');
    const id = await queue(server.db, {
      to: email,
      subject: 'Retry me',
      text: 'Second time lucky',
    });
    queued.push(id);

    await vi.waitFor(async () => expect((await row(server.db, id)).attempts).toBe(1), eventually);
    const refused = await row(server.db, id);
    expect(refused).toMatchObject({ status: 'pending', sent_at: null });
    expect(refused.last_error).toContain('Mailbox temporarily unavailable');
    expect(refused.retry_in_seconds).toBeGreaterThan(20);
    expect(refused.retry_in_seconds).toBeLessThanOrEqual(30);
    expect(receivedBy(sink, email)).toHaveLength(0);
    expect(log.lines.some((line) => line.outbox_id === id && line.level === 40)).toBe(true);

    // Not due yet: waking changes nothing.
    server.wakeMailSender();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await row(server.db, id)).attempts).toBe(1);

    sink.refuse = undefined;
    await server.db.query(
      `update public.outbox_messages set next_attempt_at = now() where id = $1`,
      [id],
    );
    server.wakeMailSender();
    await vi.waitFor(
      async () => expect(await row(server.db, id)).toMatchObject({ status: 'sent' }),
      eventually,
    );
    expect(await row(server.db, id)).toMatchObject({ attempts: 2, last_error: null });
    expect(receivedBy(sink, email)).toHaveLength(1);
    expect(receivedBy(sink, email)[0]!.text?.trim()).toBe('Second time lucky');
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts and keeps the message as failed`, async () => {
    sink.refuse = 'Still unavailable';
    const email = uniqueEmail('doomed');
    const id = await server.db.transaction(async (tx) => {
      const queuedId = await queueEmail(tx, {
        to: email,
        subject: 'Never arrives',
        text: 'x',
        template: 'test.message',
      });
      // As if it had already failed nine times.
      await tx.query(`update public.outbox_messages set attempts = $2 - 1 where id = $1`, [
        queuedId,
        MAX_ATTEMPTS,
      ]);
      return queuedId;
    });
    queued.push(id);
    await vi.waitFor(
      async () => expect(await row(server.db, id)).toMatchObject({ status: 'failed' }),
      eventually,
    );
    const failed = await row(server.db, id);
    expect(failed.attempts).toBe(MAX_ATTEMPTS);
    expect(failed.last_error).toContain('Still unavailable');
    expect(log.lines.some((line) => line.outbox_id === id && line.level === 50)).toBe(true);
    sink.refuse = undefined;

    // A failed message is never picked up again.
    await server.db.query(
      `update public.outbox_messages set next_attempt_at = now() where id = $1`,
      [id],
    );
    server.wakeMailSender();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await row(server.db, id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(receivedBy(sink, email)).toHaveLength(0);
  });

  it('gives up at once when the server refuses the recipient for good (5xx)', async () => {
    sink.refuse = 'No such user here';
    sink.refuseCode = 550;
    try {
      const email = uniqueEmail('nobody');
      const id = await queue(server.db, { to: email, subject: 'Bounces', text: 'x' });
      queued.push(id);
      await vi.waitFor(
        async () => expect(await row(server.db, id)).toMatchObject({ status: 'failed' }),
        eventually,
      );
      const failed = await row(server.db, id);
      expect(failed.attempts).toBe(1);
      expect(failed.last_error).toContain('No such user here');
      expect(receivedBy(sink, email)).toHaveLength(0);
    } finally {
      sink.refuse = undefined;
      sink.refuseCode = undefined;
    }
  });

  it('delivers attachments (e.g. a calendar invite), woken by NOTIFY alone', async () => {
    const email = uniqueEmail('invite');
    const ics =
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Cervana//Test//EN\r\nEND:VCALENDAR\r\n';
    const id = await queue(server.db, {
      to: email,
      subject: 'Your call is booked',
      text: 'See the invite attached.',
      html: '<p>See the invite attached.</p>',
      attachments: [
        {
          filename: 'call.ics',
          contentType: 'text/calendar',
          contentBase64: Buffer.from(ics).toString('base64'),
        },
      ],
    });
    queued.push(id);
    await vi.waitFor(() => expect(receivedBy(sink, email)).toHaveLength(1), eventually);
    const [mail] = receivedBy(sink, email);
    expect(mail!.attachments).toHaveLength(1);
    expect(mail!.attachments[0]).toMatchObject({
      filename: 'call.ics',
      contentType: 'text/calendar',
    });
    expect(mail!.attachments[0]!.content.toString()).toBe(ics);
    await vi.waitFor(
      async () => expect(await row(server.db, id)).toMatchObject({ status: 'sent' }),
      eventually,
    );
  });

  it('without an SMS provider, logs that a text was not sent but never its text (a code in it would sign in whoever reads the log)', async () => {
    const id = await server.db.transaction((tx) =>
      queueSms(tx, { to: '15555550123', text: 'Your code is 123456', template: 'test.sms' }),
    );
    queued.push(id);
    await vi.waitFor(
      async () => expect(await row(server.db, id)).toMatchObject({ status: 'logged' }),
      eventually,
    );
    const line = log.lines.find((entry) => entry.outbox_id === id);
    expect(line).toMatchObject({ level: 40, channel: 'sms', to: '15555550123' });
    expect(JSON.stringify(line)).not.toContain('123456');
  });

  it('sends each message once when several senders share the outbox', async () => {
    const extra = [1, 2].map(() =>
      startMailSender({
        db: server.db,
        smtpUrl: `smtp://127.0.0.1:${sink.port}`,
        from: 'no-reply@test.cervana.ai',
        logger: pino({ level: 'silent' }),
        batchSize: 3,
      }),
    );
    try {
      const email = uniqueEmail('many');
      const ids = await server.db.transaction(async (tx) => {
        const created: string[] = [];
        for (let index = 0; index < 25; index += 1) {
          created.push(
            await queueEmail(tx, {
              to: email,
              subject: `Message ${index}`,
              text: `Body ${index}`,
              template: 'test.message',
            }),
          );
        }
        return created;
      });
      queued.push(...ids);
      for (const sender of extra) sender.wake();
      server.wakeMailSender();
      await vi.waitFor(async () => {
        const { rows } = await server.db.query<{ count: number }>(
          `select count(*)::int as count from public.outbox_messages
           where id = any($1::uuid[]) and status = 'sent'`,
          [ids],
        );
        expect(rows[0]?.count).toBe(25);
      }, eventually);
      const subjects = receivedBy(sink, email).map((mail) => mail.subject);
      expect(subjects).toHaveLength(25);
      expect(new Set(subjects).size).toBe(25);
    } finally {
      await Promise.all(extra.map((sender) => sender.stop()));
    }
  });
});

describe('without SMTP', () => {
  let server: TestServer;
  let log: ReturnType<typeof captureLogger>;

  beforeAll(async () => {
    log = captureLogger();
    server = await startTestServer({ env: { MAILER_MAX_FREQUENCY: '0' }, logger: log.logger });
  });
  afterAll(() => server?.close());

  it('writes the message with its sign-in link to the log and marks it logged', async () => {
    const email = uniqueEmail('nosmtp');
    const { error } = await clientFor(server).auth.signUp({
      email,
      password: 'correct horse battery staple',
    });
    expect(error).toBeNull();
    const message = await latestMessage(server.db, email, 'auth.confirm_signup');
    await vi.waitFor(
      async () => expect(await row(server.db, message.id)).toMatchObject({ status: 'logged' }),
      eventually,
    );
    expect(await row(server.db, message.id)).toMatchObject({ attempts: 1, sent_at: null });

    const line = log.lines.find((entry) => entry.outbox_id === message.id);
    expect(line).toMatchObject({
      level: 30,
      channel: 'email',
      to: email,
      subject: 'Confirm your Cervana account',
      link: message.metadata.link,
    });
    expect(String(line?.msg)).toContain(`To: ${email}`);
    expect(String(line?.msg)).toContain('Subject: Confirm your Cervana account');
    expect(String(line?.msg)).toContain(message.metadata.link);
  });
});
