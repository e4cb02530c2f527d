import type { Hono } from 'hono';
import type { HandleAuth } from './context';

/** Placeholder: registers the identities endpoints. */
export function registerIdentityRoutes(_routes: Hono, _handle: HandleAuth): void {}
