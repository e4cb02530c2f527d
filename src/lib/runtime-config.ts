/**
 * The backend URL and anon key, learnt at run time from `/config.json`, so one
 * build serves any deployment.
 */
export interface RuntimeConfig {
  url: string;
  anonKey: string;
}

export class RuntimeConfigError extends Error {
  override name = 'RuntimeConfigError';
}

export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (typeof value !== 'object' || value === null) {
    throw new RuntimeConfigError('config.json is not a JSON object');
  }
  const { url, anonKey } = value as Record<string, unknown>;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
    throw new RuntimeConfigError('config.json has no valid "url"');
  }
  if (typeof anonKey !== 'string' || anonKey === '') {
    throw new RuntimeConfigError('config.json has no "anonKey"');
  }
  return { url, anonKey };
}

let pending: Promise<RuntimeConfig> | undefined;

export function loadRuntimeConfig(
  fetchImplementation: typeof fetch = fetch,
): Promise<RuntimeConfig> {
  pending ??= fetchImplementation('/config.json', { headers: { Accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new RuntimeConfigError(`config.json answered ${response.status}`);
      return parseRuntimeConfig(await response.json());
    })
    .catch((error: unknown) => {
      pending = undefined; // let the next caller try again
      throw error;
    });
  return pending;
}
