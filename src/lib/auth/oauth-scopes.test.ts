import { describe, expect, it } from 'vitest';
import { describeScopes, returnHost, scopeSummary } from './oauth-scopes';

describe('describeScopes', () => {
  it('words each known scope once, in the order asked', () => {
    expect(describeScopes('openid  email openid profile')).toEqual([
      'Confirm who you are: your account’s ID',
      'See your email address',
      'See your name and profile',
    ]);
  });

  it('names an unknown scope as it is, and nothing for an empty scope', () => {
    expect(describeScopes('calls:read')).toEqual(['Use “calls:read”']);
    expect(describeScopes('   ')).toEqual([]);
  });
});

describe('scopeSummary', () => {
  it('names what the granted scopes show, each once, in a sentence list', () => {
    expect(scopeSummary(['email', 'profile', 'email'])).toBe('email address and public profile');
    expect(scopeSummary(['openid', 'email', 'phone'])).toBe(
      'account ID, email address, and phone number',
    );
    expect(scopeSummary(['calls:read'])).toBe('“calls:read”');
    expect(scopeSummary([])).toBe('');
  });
});

describe('returnHost', () => {
  it('gives the host of a URL and null for anything else', () => {
    expect(returnHost('https://app.example.com:8443/callback?x=1')).toBe('app.example.com:8443');
    expect(returnHost('not a url')).toBeNull();
    expect(returnHost('com.example.app:/callback')).toBeNull();
  });
});
