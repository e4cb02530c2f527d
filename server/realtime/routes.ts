import { Hono } from 'hono';

/** The Supabase Realtime-compatible service (`/realtime/v1`); its socket lands with realtime. */
export function createRealtimeRoutes(): Hono {
  const routes = new Hono();
  routes.all('*', (c) => c.json({ error: 'Not Found', message: 'Route not found' }, 404));
  return routes;
}
