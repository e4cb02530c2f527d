import { Hono } from 'hono';

/** The PostgREST-compatible data API (`/rest/v1`); the contract (§6) lands with the data API. */
export function createRestRoutes(): Hono {
  const routes = new Hono();
  routes.all('*', (c) =>
    c.json(
      {
        code: 'PGRST125',
        details: null,
        hint: null,
        message: `Invalid path specified in request URL`,
      },
      404,
    ),
  );
  return routes;
}
