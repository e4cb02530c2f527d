import type { Hono } from 'hono';
import type { HandleAuth } from './context';

/** Placeholder: registers the admin endpoints. */
export function registerAdminRoutes(_routes: Hono, _handle: HandleAuth): void {}
