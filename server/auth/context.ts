import type { Context } from 'hono';
import type { Database } from '../db/database';
import type { KeyRing } from '../keys/key-ring';
import type { Logger } from '../logger';
import type { AuthConfig } from './auth-config';
import type { TrustProxy } from '../http/client-ip';

/** What every auth handler receives. */
export interface AuthDependencies {
  db: Database;
  ring: KeyRing;
  config: AuthConfig;
  logger: Logger;
  trustProxy: TrustProxy;
}

/** Wraps a handler so its errors become GoTrue's error bodies. */
export type AuthHandler = (c: Context, deps: AuthDependencies) => Promise<Response>;
export type HandleAuth = (handler: AuthHandler) => (c: Context) => Promise<Response>;
