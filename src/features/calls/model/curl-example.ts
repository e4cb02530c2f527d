/**
 * The `curl` example of the connect page: one signed test call, in the shape
 * of the README's "Call ingestion" example. The signature is the hex
 * HMAC-SHA256 of "<t>.<raw body>" keyed by the secret, computed with openssl.
 */

export const CALL_EVENTS_PATH = '/functions/v1/call-events';
export const SECRET_PLACEHOLDER = 'whsec_paste_your_secret_here';

/** A shell word that stays one word whatever it holds. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}

/**
 * The test call, a printf format: a fresh call_id and start time on every run
 * (so a second run is a new call, not a duplicate), with a short transcript.
 */
const BODY_FORMAT = JSON.stringify({
  call_id: 'curl-test-%s',
  direction: 'inbound',
  from: '+14155550123',
  to: '+18005550199',
  started_at: '%s',
  duration_seconds: 95,
  outcome: 'resolved',
  sentiment: 'positive',
  summary: 'A test call sent with curl from the Connect your phone system page.',
  transcript: [
    { speaker: 'agent', start_ms: 0, end_ms: 2400, text: 'Thanks for calling, how can I help?' },
    { speaker: 'caller', start_ms: 2600, end_ms: 6100, text: 'Just testing the connection.' },
  ],
  extracted: { source: 'curl test' },
});

export function buildCurlExample({
  apiUrl,
  workspaceId,
  secret,
}: {
  /** The backend's base URL, without the function's path. */
  apiUrl: string;
  workspaceId: string;
  /** Null when it is not on screen: the example then holds a placeholder to replace. */
  secret: string | null;
}): string {
  return [
    `CERVANA_URL=${shellQuote(apiUrl.replace(/\/+$/, ''))}`,
    `WORKSPACE_ID=${shellQuote(workspaceId)}`,
    `SECRET=${shellQuote(secret ?? SECRET_PLACEHOLDER)}`,
    '',
    'T=$(date +%s)',
    `BODY=$(printf ${shellQuote(BODY_FORMAT)} "$T" "$(date -u +%Y-%m-%dT%H:%M:%SZ)")`,
    `SIG=$(printf '%s' "$T.$BODY" | openssl dgst -sha256 -hmac "$SECRET" | awk '{print $NF}')`,
    '',
    `curl -sS -X POST "$CERVANA_URL${CALL_EVENTS_PATH}" \\`,
    "  -H 'Content-Type: application/json' \\",
    '  -H "X-Cervana-Workspace: $WORKSPACE_ID" \\',
    '  -H "X-Cervana-Signature: t=$T,v1=$SIG" \\',
    '  --data-binary "$BODY"',
  ].join('\n');
}
