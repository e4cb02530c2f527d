import { pino, type Logger } from 'pino';

export type { Logger };

export async function createLogger(options: {
  level: string;
  format: 'json' | 'pretty';
}): Promise<Logger> {
  if (options.format === 'pretty') {
    // Synchronous and in-process (no worker thread); loaded only when asked for.
    const { default: pretty } = await import('pino-pretty');
    return pino(
      { level: options.level },
      pretty({ sync: true, colorize: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' }),
    );
  }
  return pino({ level: options.level });
}
