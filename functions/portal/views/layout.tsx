// The page frame every portal page shares: a skip link, the header with the user's menu, one main
// landmark, and our own stylesheet and script (served by this group: no CDN, no inline code).
import type { Child, FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import { ASSET_VERSION } from '../assets.ts';
import { textAttrs } from '../../../core/languages/text-direction.ts';

export const P = '/portal';

export const CsrfField: FC<{ csrf: string }> = ({ csrf }) => <input type="hidden" name="_csrf" value={csrf} />;

export const Notice: FC<{ kind: 'error' | 'ok'; children?: Child }> = ({ kind, children }) => (
  <div class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
    {children}
  </div>
);

export type PageProps = { title: string; user?: SessionUser | undefined; csrf: string; children?: Child; wide?: boolean };

export const Layout: FC<PageProps> = ({ title, user, csrf, children, wide }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="csrf-token" content={csrf} />
      <title>{`${title} · tms`}</title>
      {/* No favicon request (it would be a 404 at the site root). */}
      <link rel="icon" href="data:," />
      <link rel="stylesheet" href={`${P}/assets/portal.css?v=${ASSET_VERSION}`} />
      <script src={`${P}/assets/portal.js?v=${ASSET_VERSION}`} defer></script>
    </head>
    <body>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={`${P}`}>
          tms
        </a>
        {user ? (
          <nav aria-label="Account">
            <span class="who">{user.email}</span>
            <form method="post" action={`${P}/sign-out`} class="inline">
              <CsrfField csrf={csrf} />
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
            <form method="post" action={`${P}/sign-out-everywhere`} class="inline">
              <CsrfField csrf={csrf} />
              <button type="submit" class="link">
                Sign out everywhere
              </button>
            </form>
          </nav>
        ) : null}
      </header>
      <main id="main" class={wide ? 'wide' : ''}>
        {children}
      </main>
    </body>
  </html>
);

export const ErrorPage: FC<{
  status: number;
  message: string;
  user?: SessionUser | undefined;
  csrf: string;
  next?: string | undefined;
  /** A value's text the ended session's form carried: shown to copy, as signing in cannot keep it. */
  typed?: { text: string; language: string | undefined } | undefined;
}> = ({ status, message, user, csrf, next, typed }) => {
  // The tab's title says what the heading says (WCAG 2.4.2): "Not allowed", not "Something went wrong".
  const heading = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status === 401 ? 'Please sign in' : 'That did not work';
  return (
  <Layout title={heading} user={user} csrf={csrf}>
    <h1>{heading}</h1>
    <Notice kind="error">{message}</Notice>
    {typed ? (
      <div class="stack">
        <label for="typed-text">Your text, not saved: copy it, sign in, and paste it into the value again</label>
        <textarea id="typed-text" readonly rows={4} {...(typed.language ? textAttrs(typed.language) : {})}>
          {typed.text}
        </textarea>
      </div>
    ) : null}
    <p>
      {status === 401 ? <a href={next ? `${P}/sign-in?next=${encodeURIComponent(next)}` : `${P}/sign-in`}>Sign in</a> : <a href={`${P}`}>Back to your projects</a>}
    </p>
  </Layout>
  );
};
