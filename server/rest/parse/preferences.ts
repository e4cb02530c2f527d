import { restErrors } from '../errors';

/** The `Prefer` header (RFC 7240) as PostgREST reads it. */
export interface Preferences {
  representation?: 'minimal' | 'representation' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  transaction?: 'commit' | 'rollback';
  maxAffected?: number;
  timezone?: string;
  /** Legacy `params=single-object`: the whole RPC body is the function's one json argument. */
  singleObject?: boolean;
}

const ACCEPTED: Record<string, (preferences: Preferences, value: string) => boolean> = {
  return: (preferences, value) => {
    if (value !== 'minimal' && value !== 'representation' && value !== 'headers-only') return false;
    preferences.representation ??= value;
    return true;
  },
  count: (preferences, value) => {
    if (value !== 'exact' && value !== 'planned' && value !== 'estimated') return false;
    preferences.count ??= value;
    return true;
  },
  resolution: (preferences, value) => {
    if (value !== 'merge-duplicates' && value !== 'ignore-duplicates') return false;
    preferences.resolution ??= value;
    return true;
  },
  missing: (preferences, value) => {
    if (value !== 'default' && value !== 'null') return false;
    preferences.missing ??= value;
    return true;
  },
  handling: (preferences, value) => {
    if (value !== 'strict' && value !== 'lenient') return false;
    preferences.handling ??= value;
    return true;
  },
  tx: (preferences, value) => {
    if (value !== 'commit' && value !== 'rollback') return false;
    preferences.transaction ??= value;
    return true;
  },
  'max-affected': (preferences, value) => {
    if (!/^\d{1,15}$/.test(value)) return false;
    preferences.maxAffected ??= Number(value);
    return true;
  },
  timezone: (preferences, value) => {
    if (!/^[A-Za-z0-9_+\-/:]{1,64}$/.test(value)) return false;
    preferences.timezone ??= value;
    return true;
  },
  params: (preferences, value) => {
    if (value !== 'single-object') return false;
    preferences.singleObject = true;
    return true;
  },
};

export function parsePreferences(header: string | undefined): Preferences {
  const preferences: Preferences = {};
  const invalid: string[] = [];
  for (const token of (header ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name = '', ...rest] = token.split('=');
    const value = rest.join('=').trim();
    const accept = ACCEPTED[name.trim()];
    if (!accept || !accept(preferences, value)) invalid.push(token);
  }
  if (preferences.handling === 'strict' && invalid.length > 0)
    throw restErrors.invalidPreferences(invalid);
  return preferences;
}

/** The `Preference-Applied` header: the preferences that were honoured, in PostgREST's order. */
export function appliedPreferences(preferences: Partial<Preferences>): string | undefined {
  const applied = [
    preferences.resolution && `resolution=${preferences.resolution}`,
    preferences.representation && `return=${preferences.representation}`,
    preferences.count && `count=${preferences.count}`,
    preferences.transaction && `tx=${preferences.transaction}`,
    preferences.missing && `missing=${preferences.missing}`,
    preferences.handling && `handling=${preferences.handling}`,
    preferences.timezone && `timezone=${preferences.timezone}`,
    preferences.maxAffected !== undefined && `max-affected=${preferences.maxAffected}`,
  ].filter((value): value is string => typeof value === 'string');
  return applied.length > 0 ? applied.join(', ') : undefined;
}

export type ResponseMedia = 'json' | 'object' | 'csv' | 'openapi';

export interface Negotiated<Media extends ResponseMedia = ResponseMedia> {
  media: Media;
  stripNulls: boolean;
}

/** Picks the response format from `Accept` (first acceptable one wins, as PostgREST does). */
export function negotiateMedia<Media extends ResponseMedia>(
  accept: string | undefined,
  allowed: Media[],
): Negotiated<Media> {
  const offered = (accept ?? '*/*')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (offered.length === 0) offered.push('*/*');
  for (const entry of offered) {
    const [type = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    const stripNulls = parameters.includes('nulls=stripped');
    let media: ResponseMedia | undefined;
    if (type === '*/*' || type === 'application/*' || type === 'application/json') media = 'json';
    else if (type === 'application/vnd.pgrst.array+json') media = 'json';
    else if (
      type === 'application/vnd.pgrst.object+json' ||
      type === 'application/vnd.pgrst.object'
    )
      media = 'object';
    else if (type === 'text/csv') media = 'csv';
    else if (type === 'application/openapi+json') media = 'openapi';
    if (media && (allowed as ResponseMedia[]).includes(media))
      return { media: media as Media, stripNulls };
  }
  throw restErrors.mediaType(offered.map((entry) => entry.split(';')[0]!.trim()));
}
