import type { Queryable } from '../db/database';

/**
 * Queues a message in public.outbox_messages, inside the caller's transaction:
 * if the change that causes the message rolls back, so does the message, and
 * once committed it is never lost (the sender retries until it goes out).
 */

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  template: string;
  attachments?: { filename: string; contentType: string; contentBase64: string }[];
  metadata?: Record<string, unknown>;
}

export interface SmsMessage {
  to: string;
  text: string;
  template: string;
  metadata?: Record<string, unknown>;
}

export async function queueEmail(db: Queryable, message: EmailMessage): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.outbox_messages (channel, recipient, subject, body_text, body_html, template, attachments, metadata)
     values ('email', $1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      message.to,
      message.subject,
      message.text,
      message.html ?? null,
      message.template,
      JSON.stringify(message.attachments ?? []),
      JSON.stringify(message.metadata ?? {}),
    ],
  );
  return rows[0]!.id;
}

export async function queueSms(db: Queryable, message: SmsMessage): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.outbox_messages (channel, recipient, body_text, template, metadata)
     values ('sms', $1, $2, $3, $4) returning id`,
    [message.to, message.text, message.template, JSON.stringify(message.metadata ?? {})],
  );
  return rows[0]!.id;
}
