import type { Deps } from '../../core/deps.ts';
import type { Principal } from '../../core/auth/api-key-verifier.ts';

/** Typed Hono context variables shared by every route group. */
export type AppEnv = {
  Variables: {
    deps: Deps;
    requestId: string;
    /** Set by the API-key middleware on /v1 routes. */
    principal: Principal;
  };
};
