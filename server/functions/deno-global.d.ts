/**
 * The global `Deno` as edge-function sources see it when TypeScript checks
 * them (tsconfig.functions.json: supabase/functions and the test fixtures):
 * exactly the surface deno-shim.ts implements (deno-api.ts), so code that uses
 * more of Deno than Cervana's server provides fails `npm run typecheck`
 * instead of failing at run time. Deno itself never reads this file.
 */
import type {
  DenoApi,
  DenoEnv,
  DenoHttpServer,
  DenoNetAddr,
  DenoServeHandler,
  DenoServeHandlerInfo,
  DenoServeOptions,
} from './deno-api';

declare global {
  namespace Deno {
    type NetAddr = DenoNetAddr;
    type ServeHandlerInfo = DenoServeHandlerInfo;
    type ServeHandler = DenoServeHandler;
    type ServeOptions = DenoServeOptions;
    type HttpServer = DenoHttpServer;
    type Env = DenoEnv;
    const serve: DenoApi['serve'];
    const env: DenoApi['env'];
  }
}

export {};
