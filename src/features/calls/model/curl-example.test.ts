import { describe, expect, it } from 'vitest';
import { buildCurlExample, SECRET_PLACEHOLDER, shellQuote } from './curl-example';

const apiUrl = 'https://cervana.example.com';
const workspaceId = '6f1c2a7e-3b1d-4c55-9d0e-2a9f7b1c8e44';
const secret = `whsec_${'ab12'.repeat(16)}`;

/** The value a `NAME='...'` line of the script gives. */
function assigned(script: string, name: string): string {
  const line = script.split('\n').find((candidate) => candidate.startsWith(`${name}=`));
  return (line ?? '').slice(name.length + 1).replace(/^'(.*)'$/, '$1');
}

/** The body the script sends, with printf's two `%s` filled in. */
function bodyOf(script: string, values: [string, string]): Record<string, unknown> {
  const match = /^BODY=\$\(printf '([^']*)' "\$T" "\$\(date -u \+%Y-%m-%dT%H:%M:%SZ\)"\)$/m.exec(
    script,
  );
  expect(match).not.toBeNull();
  const fill = [...values];
  return JSON.parse(match![1]!.replace(/%s/g, () => fill.shift()!)) as Record<string, unknown>;
}

describe('the connect page’s curl example', () => {
  it('is filled in with the API URL, the workspace id and the secret on screen', () => {
    const script = buildCurlExample({ apiUrl: `${apiUrl}/`, workspaceId, secret });
    expect(assigned(script, 'CERVANA_URL')).toBe(apiUrl);
    expect(assigned(script, 'WORKSPACE_ID')).toBe(workspaceId);
    expect(assigned(script, 'SECRET')).toBe(secret);
    expect(script).toContain('curl -sS -X POST "$CERVANA_URL/functions/v1/call-events" \\');
    expect(script).not.toContain(SECRET_PLACEHOLDER);
  });

  it('holds a placeholder when the secret is not on screen', () => {
    const script = buildCurlExample({ apiUrl, workspaceId, secret: null });
    expect(assigned(script, 'SECRET')).toBe(SECRET_PLACEHOLDER);
  });

  it('signs "<t>.<body>" with the secret as the README does, and sends exactly those bytes', () => {
    const script = buildCurlExample({ apiUrl, workspaceId, secret });
    expect(script).toContain(
      `SIG=$(printf '%s' "$T.$BODY" | openssl dgst -sha256 -hmac "$SECRET" | awk '{print $NF}')`,
    );
    expect(script).toContain('-H "X-Cervana-Workspace: $WORKSPACE_ID"');
    expect(script).toContain('-H "X-Cervana-Signature: t=$T,v1=$SIG"');
    expect(script).toMatch(/--data-binary "\$BODY"$/);
    expect(script).not.toContain('--data-raw');
  });

  it('sends a valid call, with a fresh call_id and start time each run', () => {
    const body = bodyOf(buildCurlExample({ apiUrl, workspaceId, secret }), [
      '1764000000',
      '2026-11-24T09:30:00Z',
    ]);
    expect(body).toMatchObject({
      call_id: 'curl-test-1764000000',
      direction: 'inbound',
      started_at: '2026-11-24T09:30:00Z',
      duration_seconds: 95,
      outcome: 'resolved',
    });
    expect(body.from).toMatch(/^\+[1-9][0-9]{6,14}$/);
    expect(body.to).toMatch(/^\+[1-9][0-9]{6,14}$/);
    expect(body.transcript).toEqual([
      expect.objectContaining({ speaker: 'agent', start_ms: 0 }),
      expect.objectContaining({ speaker: 'caller' }),
    ]);
  });

  it('quotes any value as one shell word', () => {
    expect(shellQuote("it's")).toBe(`'it'"'"'s'`);
    expect(shellQuote('$(rm -rf /)')).toBe(`'$(rm -rf /)'`);
  });
});
