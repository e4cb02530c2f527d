import { describe, expect, it } from 'vitest';
import { describeScopes, returnHost } from './scopes';

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

describe('returnHost', () => {
  it('gives the host of a URL and null for anything else', () => {
    expect(returnHost('https://app.example.com:8443/callback?x=1')).toBe('app.example.com:8443');
    expect(returnHost('not a url')).toBeNull();
    expect(returnHost('com.example.app:/callback')).toBeNull();
  });
});
