import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Where the app lives in a test file that renders its routes: a backend that
 * answers /config.json and nothing else, and a browser with no session stored.
 * Call it at the top level of the file.
 */
export function inASignedOutBrowser(): void {
  beforeEach(() => {
    localStorage.clear();
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) =>
      String(input) === '/config.json'
        ? Response.json({ url: 'http://127.0.0.1:9', anonKey: 'anon-key-for-tests' })
        : Promise.reject(new TypeError('no network in unit tests')),
    );
  });
  afterEach(() => vi.unstubAllGlobals());
}
