// The portal's context: the shared AppEnv plus who is signed in and the CSRF token that every form
// and fetch of this page must send back.
import type { AppEnv } from '../http/app-env.ts';
import type { ActiveSession } from '../../core/users/sessions.ts';

export type PortalEnv = {
  Variables: AppEnv['Variables'] & {
    /** The signed-in user's session; unset when nobody is signed in. */
    session: ActiveSession | undefined;
    /** The token forms carry in `_csrf` (fetches in X-CSRF-Token): the session's, or the pre-session cookie's. */
    csrf: string;
    /** Whether the page was asked for over HTTPS (cookies then get Secure and the __Host- prefix). */
    secure: boolean;
  };
};
