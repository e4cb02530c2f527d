/** What each OAuth scope lets an app do, in the words a person reads on the consent page. */
const SCOPE_SENTENCES: Record<string, string> = {
  openid: 'Confirm who you are: your account’s ID',
  email: 'See your email address',
  profile: 'See your name and profile',
  phone: 'See your phone number',
};

/** The scopes as sentences, in the order asked, each once; unknown scopes are named as they are. */
export function describeScopes(scope: string): string[] {
  const names = [...new Set(scope.split(/\s+/).filter(Boolean))];
  return names.map((name) => SCOPE_SENTENCES[name] ?? `Use “${name}”`);
}

/** Each scope as the thing it shows, for the lists of apps that were allowed. */
const SCOPE_NOUNS: Record<string, string> = {
  openid: 'account ID',
  email: 'email address',
  profile: 'public profile',
  phone: 'phone number',
};

const listFormat = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

/** "email address and phone number" style summary of granted scopes, each once; "" for none. */
export function scopeSummary(scopes: readonly string[]): string {
  const names = [...new Set(scopes.filter(Boolean))];
  return listFormat.format(names.map((name) => SCOPE_NOUNS[name] ?? `“${name}”`));
}

/** The host an app sends people back to, for "you will return to …"; null when it is not a URL. */
export function returnHost(redirectUri: string): string | null {
  try {
    return new URL(redirectUri).host || null;
  } catch {
    return null;
  }
}
