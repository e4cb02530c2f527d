/**
 * The branded email frame: a table layout with inline styles (what mail
 * clients render), readable with images off, and a plain-text twin.
 */

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface EmailContent {
  subject: string;
  /** The first line people see in their inbox. */
  preview: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** A one-time code shown large, for people who prefer typing it. */
  code?: string;
  footnote: string;
}

export function renderEmail(content: EmailContent): {
  subject: string;
  text: string;
  html: string;
} {
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    ...(content.code ? [`Your code: ${content.code}`, ''] : []),
    content.footnote,
    '',
    '— Cervana, the AI phone agent for customer success teams',
  ].join('\n');

  const paragraphs = content.paragraphs
    .map(
      (paragraph) =>
        `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#22385c">${escape(paragraph)}</p>`,
    )
    .join('');
  const action = content.action
    ? `<table role="presentation" cellspacing="0" cellpadding="0" style="margin:8px 0 24px"><tr><td style="border-radius:8px;background:#0068b5">
        <a href="${escape(content.action.url)}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:600;color:#ffffff;text-decoration:none">${escape(content.action.label)}</a>
      </td></tr></table>
      <p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#57524a">Or paste this link into your browser:<br><a href="${escape(content.action.url)}" style="color:#0068b5;word-break:break-all">${escape(content.action.url)}</a></p>`
    : '';
  const code = content.code
    ? `<p style="margin:0 0 8px;font-size:14px;color:#57524a">Your code</p>
       <p style="margin:0 0 24px;font-size:32px;font-weight:700;letter-spacing:6px;color:#0b1b33;font-family:ui-monospace,Menlo,monospace">${escape(content.code)}</p>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escape(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f1ed;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<span style="display:none;max-height:0;overflow:hidden">${escape(content.preview)}</span>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#f3f1ed;padding:32px 12px"><tr><td align="center">
  <table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;background:#ffffff;border-radius:16px;overflow:hidden">
    <tr><td style="background:#0b1b33;padding:20px 32px;font-size:20px;font-weight:700;color:#ffffff">Cervana</td></tr>
    <tr><td style="padding:32px">
      <h1 style="margin:0 0 16px;font-size:24px;line-height:32px;color:#0b1b33">${escape(content.heading)}</h1>
      ${paragraphs}${action}${code}
      <p style="margin:24px 0 0;font-size:13px;line-height:20px;color:#57524a">${escape(content.footnote)}</p>
    </td></tr>
  </table>
  <p style="margin:16px 0 0;font-size:12px;color:#57524a">Cervana, Inc. · 548 Market Street, Suite 91720, San Francisco, CA 94104</p>
</td></tr></table>
</body></html>`;
  return { subject: content.subject, text, html };
}

/**
 * Messages queued by SQL functions (the public forms) carry their content as
 * `metadata.layout` and no HTML: it is drawn here, in the same branded frame as
 * the server's own emails. Anything malformed falls back to the plain text.
 */
export function htmlFromLayout(metadata: Record<string, unknown> | null): string | undefined {
  const layout = metadata?.layout as Partial<EmailContent> | undefined;
  if (
    !layout ||
    typeof layout.subject !== 'string' ||
    typeof layout.heading !== 'string' ||
    !Array.isArray(layout.paragraphs) ||
    !layout.paragraphs.every((paragraph) => typeof paragraph === 'string')
  ) {
    return undefined;
  }
  const action = layout.action;
  return renderEmail({
    subject: layout.subject,
    preview: typeof layout.preview === 'string' ? layout.preview : layout.heading,
    heading: layout.heading,
    paragraphs: layout.paragraphs,
    ...(action && typeof action.label === 'string' && typeof action.url === 'string'
      ? { action: { label: action.label, url: action.url } }
      : {}),
    footnote: typeof layout.footnote === 'string' ? layout.footnote : '',
  }).html;
}
