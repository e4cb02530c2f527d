import type { Hono } from 'hono';
import type { HandleAuth } from './context';

/** Placeholder: registers the mfa endpoints. */
export function registerMfaRoutes(_routes: Hono, _handle: HandleAuth): void {}
