import { describe, expect, it } from 'vitest';
import { isRedirectAllowed, resolveRedirect } from './redirects';

const SITE = 'https://cervana.ai';

function configWith(...redirectAllowList: string[]) {
  return { siteUrl: SITE, redirectAllowList };
}

const wildcard = configWith('https://*.cervana-app.com/**');

describe('resolveRedirect with a wildcard allow list (security issue 22, finding 4)', () => {
  it.each([
    // The reported attacks: the host is evil.example, the allowed suffix sits in the query or fragment.
    'https://evil.example?.cervana-app.com/x',
    'https://evil.example#.cervana-app.com/',
    'https://evil.example/?.cervana-app.com/',
    // `*` must not cross `.` or `/`.
    'https://evil.com/.cervana-app.com/',
    'https://evil.com/x.cervana-app.com/',
    'https://a.b.evil.com/.cervana-app.com/x',
    // A host that merely ends with the suffix, or continues past it.
    'https://evilcervana-app.com/',
    'https://evil-cervana-app.com/',
    'https://a.cervana-app.com.evil.example/',
    'https://cervana-app.com.evil.example/x',
    // Userinfo: the browser goes to the host after `@`.
    'https://a.cervana-app.com@evil.example/',
    'https://a.cervana-app.com:pw@evil.example/',
    'https://user@a.cervana-app.com/',
    // Backslashes: browsers read them as `/`.
    'https://evil.example\\.cervana-app.com/',
    'https:\\\\evil.example\\.cervana-app.com/',
    'https://a.cervana-app.com\\@evil.example/',
    // Percent-encoded dots and slashes in the host or path.
    'https://evil%2ecom.cervana-app.com/',
    'https://evil.com%2f.cervana-app.com/',
    'https://a.cervana-app.com/%2e%2e/x',
    'https://a.cervana-app.com/x/../y',
    // Control characters and spaces, which parsers strip or split on.
    'https://evil.example\t.cervana-app.com/',
    'https://evil.example\n.cervana-app.com/',
    '\thttps://a.cervana-app.com/',
    'https://a.cervana-app.com/ x',
    'https://a.cervana-app.com/\u0000',
    // Forms the browser would rewrite: check what is visited, not what was written.
    'https://A.cervana-app.com/',
    'https://a.CERVANA-APP.com/x',
    'https://ä.cervana-app.com/',
    'https://a.cervana-app.com:443/',
    'HTTPS://a.cervana-app.com/',
    'https:/a.cervana-app.com/',
    'https:a.cervana-app.com/',
    'https://a.cervana-app.com./',
    'https://.cervana-app.com/',
    'https://cervana-app.com/',
    // Other schemes and ports, IP addresses.
    'http://a.cervana-app.com/',
    'https://a.cervana-app.com:8443/',
    'javascript://a.cervana-app.com/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://127.0.0.1/',
    'https://2130706433/',
    'https://[::1]/',
    '//evil.example/',
    'evil.example',
    '',
  ])('refuses %j', (requested) => {
    expect(isRedirectAllowed(wildcard, requested)).toBe(false);
    expect(resolveRedirect(wildcard, requested)).toBe(SITE);
  });

  it.each([
    'https://a.cervana-app.com/',
    'https://a.cervana-app.com',
    'https://partners.cervana-app.com/welcome',
    'https://x-1.cervana-app.com/deep/path/to/page',
    'https://a.cervana-app.com/cb?next=%2Fhome&x=1',
    'https://a.cervana-app.com/cb#section',
    'https://xn--4ca.cervana-app.com/',
  ])('accepts %j', (requested) => {
    expect(resolveRedirect(wildcard, requested)).toBe(requested);
  });

  it('never lets `*` cross a label, but `**` does', () => {
    expect(isRedirectAllowed(wildcard, 'https://a.b.cervana-app.com/')).toBe(false);
    const deep = configWith('https://**.cervana-app.com/**');
    expect(isRedirectAllowed(deep, 'https://a.b.cervana-app.com/x')).toBe(true);
    expect(isRedirectAllowed(deep, 'https://evil.com/.cervana-app.com/')).toBe(false);
    expect(isRedirectAllowed(deep, 'https://evil.example?.cervana-app.com/')).toBe(false);
    expect(isRedirectAllowed(deep, 'https://evilcervana-app.com/')).toBe(false);
  });
});

describe('resolveRedirect keeps what must work', () => {
  it('falls back to the site URL without a redirect_to', () => {
    expect(resolveRedirect(configWith(), undefined)).toBe(SITE);
    expect(resolveRedirect(configWith(), '')).toBe(SITE);
  });

  it('accepts the site itself, any path, and not a look-alike', () => {
    const config = configWith();
    expect(resolveRedirect(config, 'https://cervana.ai/auth?mode=reset')).toBe(
      'https://cervana.ai/auth?mode=reset',
    );
    expect(resolveRedirect(config, 'https://cervana.ai')).toBe('https://cervana.ai');
    expect(resolveRedirect(config, 'https://cervana.ai/')).toBe('https://cervana.ai/');
    for (const hostile of [
      'http://cervana.ai/',
      'https://cervana.ai:8443/',
      'https://cervana.ai.evil.example/',
      'https://cervana.ai@evil.example/',
      'https://evil.example/https://cervana.ai/',
      'https://evil.example?https://cervana.ai/',
    ]) {
      expect(resolveRedirect(config, hostile), hostile).toBe(SITE);
    }
  });

  it('lets a loopback site be reached on any port (RFC 8252), as GoTrue does', () => {
    const config = { siteUrl: 'http://localhost:3000', redirectAllowList: [] };
    expect(resolveRedirect(config, 'http://localhost:5173/auth')).toBe(
      'http://localhost:5173/auth',
    );
    expect(resolveRedirect(config, 'http://localhost.evil.example:5173/')).toBe(config.siteUrl);
  });

  it('matches exact entries, and plain entries as prefixes at a `/`', () => {
    const config = configWith('https://partner.example.com/callback', 'https://docs.example.org');
    expect(isRedirectAllowed(config, 'https://partner.example.com/callback')).toBe(true);
    expect(isRedirectAllowed(config, 'https://partner.example.com/callback/step')).toBe(true);
    expect(isRedirectAllowed(config, 'https://partner.example.com/callbacks')).toBe(false);
    expect(isRedirectAllowed(config, 'https://partner.example.com/other')).toBe(false);
    expect(isRedirectAllowed(config, 'https://partner.example.com.evil.io/callback')).toBe(false);
    expect(isRedirectAllowed(config, 'https://docs.example.org')).toBe(true);
    expect(isRedirectAllowed(config, 'https://docs.example.org/any/page?q=1')).toBe(true);
    expect(isRedirectAllowed(config, 'https://docs.example.org.evil.io/')).toBe(false);
    expect(isRedirectAllowed(config, 'https://docs.example.org@evil.io/')).toBe(false);
  });

  it('reads `*` within a path segment and `**` across segments', () => {
    const config = configWith('https://app.example.com/*/done', 'https://files.example.com/**');
    expect(isRedirectAllowed(config, 'https://app.example.com/team/done')).toBe(true);
    expect(isRedirectAllowed(config, 'https://app.example.com/a/b/done')).toBe(false);
    expect(isRedirectAllowed(config, 'https://files.example.com/a/b/c.pdf')).toBe(true);
    expect(isRedirectAllowed(config, 'https://files.example.com')).toBe(true);
    expect(isRedirectAllowed(config, 'https://evil.example/files.example.com/x')).toBe(false);
  });

  it('compares ports: none means the default, `*` any, a number that one', () => {
    const config = configWith(
      'http://localhost:*/**',
      'https://staging.example.com:8443/**',
      'https://web.example.com:443/**',
    );
    expect(isRedirectAllowed(config, 'http://localhost:5173/cb')).toBe(true);
    expect(isRedirectAllowed(config, 'http://localhost/cb')).toBe(true);
    expect(isRedirectAllowed(config, 'http://localhost.evil.example:5173/cb')).toBe(false);
    expect(isRedirectAllowed(config, 'https://staging.example.com:8443/x')).toBe(true);
    expect(isRedirectAllowed(config, 'https://staging.example.com/x')).toBe(false);
    expect(isRedirectAllowed(config, 'https://staging.example.com:9443/x')).toBe(false);
    expect(isRedirectAllowed(config, 'https://web.example.com/x')).toBe(true);
    expect(isRedirectAllowed(wildcard, 'https://a.cervana-app.com:8443/')).toBe(false);
  });

  it('allows a mobile deep link only when the allow list names its scheme', () => {
    const link = 'com.cervana.app://callback';
    expect(isRedirectAllowed(configWith(), link)).toBe(false);
    expect(isRedirectAllowed(wildcard, link)).toBe(false);
    const config = configWith('com.cervana.app://callback', 'https://*.cervana-app.com/**');
    expect(resolveRedirect(config, link)).toBe(link);
    expect(isRedirectAllowed(config, 'com.cervana.app://callback/')).toBe(true);
    expect(isRedirectAllowed(config, 'com.cervana.app://callback?step=2')).toBe(true);
    expect(isRedirectAllowed(config, 'com.cervana.app://callback/next')).toBe(true);
    expect(isRedirectAllowed(config, 'com.cervana.app://other')).toBe(false);
    expect(isRedirectAllowed(config, 'com.evil.app://callback')).toBe(false);
    expect(isRedirectAllowed(config, 'com.cervana.app://callback@evil/')).toBe(false);
    expect(isRedirectAllowed(config, 'com.cervana.app://callback\\x')).toBe(false);
    const anyHost = configWith('myapp://**');
    expect(isRedirectAllowed(anyHost, 'myapp://login-callback')).toBe(true);
    expect(isRedirectAllowed(anyHost, 'otherapp://login-callback')).toBe(false);
  });

  it('never allows script, data or file schemes, even when listed', () => {
    const config = configWith('javascript:**', 'data:**', 'file:///**');
    for (const hostile of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd']) {
      expect(resolveRedirect(config, hostile), hostile).toBe(SITE);
    }
  });

  it('reads entries as the browser writes hosts: lower case, punycode', () => {
    const config = configWith('https://*.CERVANA-APP.com/**', 'https://bücher.example/**');
    expect(isRedirectAllowed(config, 'https://a.cervana-app.com/')).toBe(true);
    expect(isRedirectAllowed(config, 'https://xn--bcher-kva.example/x')).toBe(true);
    expect(isRedirectAllowed(config, 'https://bücher.example/x')).toBe(false);
  });

  it('ignores allow-list entries with userinfo, and lets IP literals match only exactly', () => {
    expect(
      isRedirectAllowed(configWith('https://user@a.example.com/**'), 'https://a.example.com/'),
    ).toBe(false);
    const config = configWith('http://10.0.0.5:8080/**', 'http://*.*.*.*/**');
    expect(isRedirectAllowed(config, 'http://10.0.0.5:8080/cb')).toBe(true);
    expect(isRedirectAllowed(config, 'http://10.0.0.6/cb')).toBe(false);
  });
});
