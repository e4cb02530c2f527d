import { htmlFromLayout } from '@/config/email-layout';
import { formatSize, templateLabel, type EmailPreview } from '../model/email-log';

/**
 * The message as it went out: addresses, the HTML part in a sandboxed frame
 * (no scripts, no same origin, so nothing in it can act as the admin), the
 * text part, attachments and metadata. Secrets arrive hidden from the database.
 */
export function EmailContent({ message }: { message: EmailPreview }) {
  const html =
    message.body_html ?? (message.layout ? htmlFromLayout({ layout: message.layout }) : undefined);
  const metadata = Object.entries(message.metadata);
  return (
    <div className="grid min-w-0 gap-6">
      <section
        aria-labelledby="email-addresses-heading"
        className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
      >
        <h2 id="email-addresses-heading" className="sr-only">
          Addresses
        </h2>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold text-ink-600">From</dt>
          <dd className="text-ink-900">
            {message.channel === 'sms'
              ? 'Cervana (text message)'
              : 'Cervana’s sending address (SMTP_FROM)'}
          </dd>
          <dt className="font-semibold text-ink-600">To</dt>
          <dd className="break-all text-ink-900">{message.recipient}</dd>
          <dt className="font-semibold text-ink-600">Kind</dt>
          <dd className="text-ink-900">
            {templateLabel(message.template)}{' '}
            <code className="text-xs break-all text-ink-600">{message.template}</code>
          </dd>
        </dl>
      </section>

      {html ? (
        <section aria-labelledby="email-html-heading" className="grid gap-2">
          <h2 id="email-html-heading" className="text-lg font-semibold text-ink-900">
            HTML part
          </h2>
          <iframe
            title="The message as HTML"
            sandbox=""
            srcDoc={html}
            referrerPolicy="no-referrer"
            className="h-[36rem] w-full rounded-2xl border border-sand-200 bg-white"
          />
          {message.body_html === null ? (
            <p className="text-sm text-ink-600">
              Drawn from the message’s layout, as the server draws it when it sends.
            </p>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="email-text-heading" className="grid gap-2">
        <h2 id="email-text-heading" className="text-lg font-semibold text-ink-900">
          {message.channel === 'sms' ? 'Text' : 'Text part'}
        </h2>
        <pre className="overflow-x-auto rounded-2xl border border-sand-200 bg-white p-4 text-sm whitespace-pre-wrap break-words text-ink-900">
          {message.body_text}
        </pre>
      </section>

      <section aria-labelledby="email-attachments-heading" className="grid gap-2">
        <h2 id="email-attachments-heading" className="text-lg font-semibold text-ink-900">
          Attachments
        </h2>
        {message.attachments.length === 0 ? (
          <p className="text-sm text-ink-600">None.</p>
        ) : (
          <ul className="grid gap-2">
            {message.attachments.map((attachment, index) => (
              <li
                key={`${attachment.filename}-${index}`}
                className="rounded-xl border border-sand-200 bg-white p-3 text-sm"
              >
                <p className="font-semibold break-all text-ink-900">{attachment.filename}</p>
                <p className="break-all text-ink-600">
                  {attachment.content_type} · {formatSize(attachment.size)}
                </p>
                {attachment.text !== null ? (
                  <details className="mt-2">
                    <summary className="cursor-pointer font-medium text-azure-700">
                      Show its text
                    </summary>
                    <pre className="mt-2 overflow-x-auto text-xs whitespace-pre-wrap break-all text-ink-800">
                      {attachment.text}
                    </pre>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="email-metadata-heading" className="grid gap-2">
        <h2 id="email-metadata-heading" className="text-lg font-semibold text-ink-900">
          Metadata
        </h2>
        {metadata.length === 0 ? (
          <p className="text-sm text-ink-600">None.</p>
        ) : (
          <dl className="grid gap-x-6 gap-y-2 rounded-2xl border border-sand-200 bg-white p-4 text-sm sm:grid-cols-[auto_1fr]">
            {metadata.map(([key, value]) => (
              <div key={key} className="contents">
                <dt className="font-semibold text-ink-600">{key}</dt>
                <dd className="break-all text-ink-900">
                  {typeof value === 'string' ? value : JSON.stringify(value)}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </div>
  );
}
