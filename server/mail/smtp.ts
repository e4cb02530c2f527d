import type { Transporter } from 'nodemailer';

/**
 * Delivery over SMTP (`SMTP_URL`). `smtp://host:587` sends in the clear and
 * upgrades with STARTTLS when the server offers it; `smtps://host:465` speaks
 * TLS from the start. nodemailer's URL options apply too, e.g.
 * `?requireTLS=true`, `?ignoreTLS=true` or `?tls.rejectUnauthorized=false`.
 * nodemailer loads on the first message, not at start-up.
 */

export interface OutgoingEmail {
  /** The outbox row's id: also the Message-ID, so a re-sent copy is recognisably the same mail. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | undefined;
  attachments: { filename: string; contentType: string; contentBase64: string }[];
}

export interface SmtpTransport {
  /** host:port, without credentials, for the log. */
  readonly target: string;
  send(message: OutgoingEmail): Promise<void>;
  close(): void;
}

// Bounded so one unresponsive server cannot hold a claimed batch past its lease.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

function describeTarget(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    const secure = url.protocol === 'smtps:';
    return `${url.hostname}:${url.port || (secure ? 465 : 587)}${secure ? ' (TLS)' : ''}`;
  } catch {
    return 'the SMTP server';
  }
}

/** The domain of the sender address, for Message-IDs. */
function fromDomain(from: string): string {
  return /@([^\s>]+)/.exec(from)?.[1] ?? 'cervana.ai';
}

export function createSmtpTransport(smtpUrl: string, from: string): SmtpTransport {
  let transporter: Promise<Transporter> | undefined;
  const domain = fromDomain(from);
  const load = () => {
    transporter ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({ url: smtpUrl, ...TIMEOUTS } as Parameters<typeof createTransport>[0]),
    );
    return transporter;
  };
  return {
    target: describeTarget(smtpUrl),
    async send(message) {
      const mailer = await load();
      await mailer.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${message.id}@${domain}>`,
        attachments: message.attachments.map((attachment) => ({
          filename: attachment.filename,
          contentType: attachment.contentType,
          content: attachment.contentBase64,
          encoding: 'base64',
        })),
      });
    },
    close() {
      void transporter?.then((mailer) => mailer.close()).catch(() => undefined);
    },
  };
}
