import type { AuthConfig } from './auth-config';

/** `*` matches within a path segment, `**` across segments. */
function globToRegExp(glob: string): RegExp {
  const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const pattern = glob
    .split('**')
    .map((part) => part.split('*').map(escape).join('[^/]*'))
    .join('.*');
  return new RegExp(`^${pattern}$`);
}

/**
 * Where a flow may send the browser back to: a URL on the site itself, or one
 * the allow-list names (exact or with * globs). Anything else falls back to
 * the site URL, as GoTrue does.
 */
export function resolveRedirect(
  config: Pick<AuthConfig, 'siteUrl' | 'redirectAllowList'>,
  requested: string | undefined,
): string {
  if (!requested) return config.siteUrl;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return config.siteUrl;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && !config.redirectAllowList.length) {
    return config.siteUrl;
  }
  const site = new URL(config.siteUrl);
  if (url.origin === site.origin) return url.toString();
  const allowed = config.redirectAllowList.some((pattern) =>
    pattern.includes('*')
      ? globToRegExp(pattern).test(requested)
      : requested === pattern || requested.startsWith(`${pattern.replace(/\/$/, '')}/`),
  );
  return allowed ? requested : config.siteUrl;
}
