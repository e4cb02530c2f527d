import { Hono } from 'hono';
import type { KeyRing } from '../keys/key-ring';

export interface AuthRouteDependencies {
  ring: KeyRing;
}

/**
 * The GoTrue-compatible auth service (`/auth/v1`). For now: the key set and
 * the health probe; the rest of the contract (§2) lands with the auth service.
 */
export function createAuthRoutes({ ring }: AuthRouteDependencies): Hono {
  const routes = new Hono();
  routes.get('/.well-known/jwks.json', (c) =>
    c.json(ring.publicJwks(), 200, { 'Cache-Control': 'public, max-age=600' }),
  );
  routes.get('/health', (c) =>
    c.json({ version: '0.1.0', name: 'GoTrue', description: 'Cervana auth (GoTrue-compatible)' }),
  );
  routes.all('*', (c) =>
    c.json({ code: 'not_found', message: `No auth endpoint ${c.req.method} ${c.req.path}` }, 404),
  );
  return routes;
}
