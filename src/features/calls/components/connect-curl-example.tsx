import { CopyButton } from '@/components/ui/copy-button';
import { buildCurlExample, SECRET_PLACEHOLDER } from '../model/curl-example';

/** A signed test call to paste into a terminal, filled in for this workspace. */
export function ConnectCurlExample({
  apiUrl,
  workspaceId,
  secret,
}: {
  apiUrl: string;
  workspaceId: string;
  secret: string | null;
}) {
  const example = buildCurlExample({ apiUrl, workspaceId, secret });
  return (
    <section
      aria-labelledby="curl-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="curl-heading" className="text-lg font-semibold text-ink-900">
            Send a test call
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-ink-600">
            Paste this into a terminal (it needs <code>curl</code> and <code>openssl</code>). It
            signs a test call and posts it; the call appears on your dashboard within seconds.
          </p>
        </div>
        <CopyButton value={example} label="curl example" />
      </div>
      {secret ? null : (
        <p className="mt-3 text-sm text-ink-700">
          Replace <code className="rounded bg-sand-100 px-1 font-mono">{SECRET_PLACEHOLDER}</code>{' '}
          with your secret: it is filled in only while a new one is on screen.
        </p>
      )}
      <pre
        tabIndex={0}
        aria-label="curl example"
        className="mt-4 overflow-x-auto rounded-xl bg-ink-900 p-4 font-mono text-sm leading-relaxed text-ink-100"
      >
        <code>{example}</code>
      </pre>
    </section>
  );
}
