// Setup of the first owner, sign-in, and accepting an invitation: the pages anyone may open.
import type { FC } from 'hono/jsx';
import { PLANS } from '../../../core/accounts/plans.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { FieldProblem, problemAttrs, type FieldProblems } from './field-problems.tsx';

type FormPage = { csrf: string; error?: string | undefined; email?: string | undefined };

export const SetupPage: FC<FormPage & { accountName?: string | undefined; plan?: string | undefined; problems?: FieldProblems | undefined }> = ({ csrf, error, email, accountName, plan, problems }) => (
  <Layout title="Set up tms" csrf={csrf}>
    <h1>Welcome to tms</h1>
    <p class="lead">Create the first owner and their account. You need the admin token that <code>npm start</code> printed: it is kept in the file <code>admin-token</code> of the data directory (<code>.tms/</code> unless <code>TMS_DATA_DIR</code> says otherwise), or it is the value of <code>TMS_ADMIN_TOKEN</code> when that is set.</p>
    {error ? <Notice kind="error">{error}</Notice> : null}
    <form method="post" action={`${P}/setup`} class="card stack">
      <CsrfField csrf={csrf} />
      <label>
        Admin token
        <input name="admin_token" type="password" required autocomplete="off" {...problemAttrs(problems, 'setup', 'admin_token')} />
      </label>
      <FieldProblem problems={problems} form="setup" name="admin_token" />
      <label>
        Your email
        <input name="email" type="email" required autocomplete="username" value={email ?? ''} {...problemAttrs(problems, 'setup', 'email')} />
      </label>
      <FieldProblem problems={problems} form="setup" name="email" />
      <label>
        Password <span class="hint">(at least 8 characters)</span>
        <input name="password" type="password" required minlength={8} autocomplete="new-password" {...problemAttrs(problems, 'setup', 'password')} />
      </label>
      <FieldProblem problems={problems} form="setup" name="password" />
      <label>
        Account name <span class="hint">(your team or company)</span>
        <input name="account_name" required maxlength={maxUnits(200)} value={accountName ?? ''} {...problemAttrs(problems, 'setup', 'account_name')} />
      </label>
      <FieldProblem problems={problems} form="setup" name="account_name" />
      <label>
        Plan <span class="hint">(on your own server, unlimited: no limit on projects, keys, languages, calls or translation units)</span>
        <select name="plan">
          {PLANS.map((p) => (
            <option value={p} selected={p === (plan && (PLANS as readonly string[]).includes(plan) ? plan : 'unlimited')}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Create owner and account</button>
    </form>
  </Layout>
);

export const SignInPage: FC<FormPage & { next?: string | undefined }> = ({ csrf, error, email, next }) => (
  <Layout title="Sign in" csrf={csrf}>
    <h1>Sign in</h1>
    {error ? <Notice kind="error">{error}</Notice> : null}
    <form method="post" action={`${P}/sign-in`} class="card stack">
      <CsrfField csrf={csrf} />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <label>
        Email
        <input name="email" type="email" required autocomplete="username" value={email ?? ''} autofocus />
      </label>
      <label>
        Password
        <input name="password" type="password" required autocomplete="current-password" />
      </label>
      <button type="submit">Sign in</button>
    </form>
    <p class="hint">No account? Ask an owner of your team for an invitation link.</p>
  </Layout>
);

export const InvitePage: FC<FormPage & { token: string; accountName: string; role: string; languages: string[] | null }> = ({ csrf, error, email, token, accountName, role, languages }) => (
  <Layout title="Join" csrf={csrf}>
    <h1>Join {accountName}</h1>
    <p class="lead">
      You are invited as <strong>{role}</strong>
      {languages && languages.length ? <> for {languages.join(', ')}</> : null}. Choose your password (or, if this address already has an account, enter its password).
    </p>
    {error ? <Notice kind="error">{error}</Notice> : null}
    <form method="post" action={`${P}/invite/${encodeURIComponent(token)}`} class="card stack">
      <CsrfField csrf={csrf} />
      <label>
        Email
        <input name="email" type="email" required autocomplete="username" value={email ?? ''} />
      </label>
      <label>
        Password <span class="hint">(at least 8 characters)</span>
        <input name="password" type="password" required minlength={8} autocomplete="new-password" />
      </label>
      <button type="submit">Join {accountName}</button>
    </form>
  </Layout>
);
