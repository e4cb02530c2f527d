const code = 'rounded bg-sand-100 px-1 font-mono text-[0.8125rem] text-ink-900 break-words';

const ANSWERS = [
  ['201', 'Stored. The answer’s recording_upload.url takes the call’s audio file (PUT).'],
  ['200', 'Already stored: the same call_id was sent before. Nothing is stored twice.'],
  ['400', 'A field is missing or wrong; the answer names it.'],
  ['401', 'Unknown workspace, or a missing, wrong or stale signature.'],
  ['413', 'The body is over 1 MB.'],
  ['429', 'Too many calls at once: retry after the Retry-After header’s seconds.'],
] as const;

/** What a request must carry and what it gets back: the public contract, in short. */
export function ConnectSignature() {
  return (
    <section
      aria-labelledby="signature-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="signature-heading" className="text-lg font-semibold text-ink-900">
        How requests are signed
      </h2>
      <div className="mt-4 grid gap-6 text-sm text-ink-800 lg:grid-cols-2">
        <div className="grid content-start gap-3">
          <p>
            One <span className="font-semibold">POST</span> per finished call, with a JSON body of
            at most 1 MB and two headers:
          </p>
          <ul className="grid gap-2">
            <li>
              <code className={code}>X-Cervana-Workspace: &lt;workspace id&gt;</code>
            </li>
            <li>
              <code className={code}>
                X-Cervana-Signature: t=&lt;unix seconds&gt;,v1=&lt;signature&gt;
              </code>
            </li>
          </ul>
          <p>
            The signature is the hex HMAC-SHA256 of{' '}
            <code className={code}>&lt;t&gt;.&lt;raw body&gt;</code>, keyed with the whole secret (
            <code className={code}>whsec_…</code>). <code className={code}>t</code> may be at most 5
            minutes old and 1 minute ahead. While a rotation overlaps, you may send one{' '}
            <code className={code}>v1=</code> per secret, separated by commas.
          </p>
          <p>
            Required fields: <code className={code}>call_id</code>,{' '}
            <code className={code}>direction</code>, <code className={code}>from</code>,{' '}
            <code className={code}>to</code> (E.164), <code className={code}>started_at</code>,{' '}
            <code className={code}>duration_seconds</code>, <code className={code}>outcome</code>.
            Optional: <code className={code}>sentiment</code>, <code className={code}>summary</code>
            , <code className={code}>transcript</code>, <code className={code}>extracted</code>.
          </p>
        </div>
        <div>
          <h3 className="font-semibold text-ink-900">Answers</h3>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-2">
            {ANSWERS.map(([status, meaning]) => (
              <div key={status} className="contents">
                <dt className="font-mono font-semibold text-ink-900 tabular-nums">{status}</dt>
                <dd>{meaning}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
    </section>
  );
}
