import type { Context, MiddlewareHandler } from 'hono';
import { forwardedProto, type TrustProxy } from './client-ip';

export interface SecurityHeaderOptions {
  apiUrl: string;
  schedulerUrl: string;
  schedulerScriptUrl: string;
  trustProxy: TrustProxy;
  /** Hashes of the site's own inline scripts (the prerendered pages' bootstrap). */
  scriptHashes?: readonly string[];
}

function websocketOrigin(url: URL): string {
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

/**
 * Only our own origin, the API (when it lives elsewhere) and the scheduling
 * widget's hosts. Inline styles are allowed because the widget and the toast
 * library inject them; inline scripts only by hash (the build's bootstrap).
 */
export function buildContentSecurityPolicy(
  options: Omit<SecurityHeaderOptions, 'trustProxy'>,
): string {
  const api = new URL(options.apiUrl);
  const schedulerScript = new URL(options.schedulerScriptUrl).origin;
  const schedulerPage = new URL(options.schedulerUrl).origin;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': [
      "'self'",
      ...(options.scriptHashes ?? []).map((hash) => `'${hash}'`),
      schedulerScript,
    ],
    'style-src': ["'self'", "'unsafe-inline'", schedulerScript],
    'img-src': ["'self'", 'data:', 'blob:', api.origin],
    'font-src': ["'self'"],
    'connect-src': ["'self'", api.origin, websocketOrigin(api)],
    'media-src': ["'self'", 'blob:', api.origin],
    'frame-src': [schedulerPage],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}

/** Whether the client reached us over https: directly, or as the trusted proxies report it. */
export function isHttpsRequest(c: Context, trustProxy: TrustProxy): boolean {
  // The request's URL is absolute and parsed already (its scheme in lower case): no need to parse it again.
  if (c.req.url.startsWith('https:')) return true;
  return forwardedProto(c, trustProxy) === 'https';
}

/**
 * Scripts, stylesheets and fonts are never documents: the CSP, frame, opener and
 * permissions policies do nothing on them (the app starts no workers, whose script's
 * CSP would apply), and on HTTP/1.1 they cost about 850 bytes per response, more than
 * many of the app's chunks weigh (decision 033).
 */
const SUBRESOURCE_TYPE = /^(text\/javascript|application\/javascript|text\/css|font\/)/i;

export function securityHeaders(options: SecurityHeaderOptions): MiddlewareHandler {
  const policy = buildContentSecurityPolicy(options);
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    const https = isHttpsRequest(c, options.trustProxy);
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (https) headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
    if (SUBRESOURCE_TYPE.test(headers.get('Content-Type') ?? '')) return;
    // A service may have set a stricter policy (stored files are sandboxed): keep it.
    if (!headers.has('Content-Security-Policy')) {
      headers.set(
        'Content-Security-Policy',
        https ? `${policy}; upgrade-insecure-requests` : policy,
      );
    }
    headers.set('X-Frame-Options', 'DENY');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set(
      'Permissions-Policy',
      'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    );
  };
}
