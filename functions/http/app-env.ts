import type { Deps } from '../../core/deps.ts';
import type { Principal } from '../../core/auth/api-key-verifier.ts';

/**
 * Typed Hono context variables shared by every route group. Read them with c.get('deps'): Hono's
 * c.var builds a fresh object from all variables on every access, a cost on the hot path.
 */
export type AppEnv = {
  Variables: {
    deps: Deps;
    requestId: string;
    /** The caller's network address, as the entry (local server, Lambda) knows it; unset in tests. */
    clientAddress: string | undefined;
    /** The CORS middleware allowed the request's Origin (set only when one was sent). */
    corsAllowed: boolean | undefined;
    /** Set by the API-key middleware on /v1 routes. */
    principal: Principal;
    /** Set once the daily quota has counted this request. */
    counted: boolean | undefined;
    /** Headers for the answer, known before it is made: flat name, value pairs (response-headers.ts). */
    pendingHeaders: string[] | undefined;
  };
};
