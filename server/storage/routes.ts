import { Hono } from 'hono';

/** The Supabase Storage-compatible service (`/storage/v1`); the contract (§4) lands with storage. */
export function createStorageRoutes(): Hono {
  const routes = new Hono();
  routes.all('*', (c) =>
    c.json(
      { statusCode: '404', code: 'NotFound', error: 'Not Found', message: 'Route not found' },
      404,
    ),
  );
  return routes;
}
