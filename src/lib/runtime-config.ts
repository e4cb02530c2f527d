/**
 * The backend URL, anon key and scheduler, learnt at run time from
 * `/config.json`, so one build serves any deployment.
 */
export interface SchedulerConfig {
  /** The 30-minute booking page. */
  url: string;
  /** The scheduling widget's script. */
  scriptUrl: string;
}

export interface RuntimeConfig {
  url: string;
  anonKey: string;
  scheduler: SchedulerConfig | undefined;
}

export class RuntimeConfigError extends Error {
  override name = 'RuntimeConfigError';
}

const isHttpUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\//.test(value);

export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (typeof value !== 'object' || value === null) {
    throw new RuntimeConfigError('config.json is not a JSON object');
  }
  const { url, anonKey, scheduler } = value as Record<string, unknown>;
  if (!isHttpUrl(url)) throw new RuntimeConfigError('config.json has no valid "url"');
  if (typeof anonKey !== 'string' || anonKey === '') {
    throw new RuntimeConfigError('config.json has no "anonKey"');
  }
  const { url: schedulerUrl, scriptUrl } = (scheduler ?? {}) as Record<string, unknown>;
  return {
    url,
    anonKey,
    scheduler:
      isHttpUrl(schedulerUrl) && isHttpUrl(scriptUrl)
        ? { url: schedulerUrl, scriptUrl }
        : undefined,
  };
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
