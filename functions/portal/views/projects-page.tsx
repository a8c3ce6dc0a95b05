// The home page (the projects of every account the user belongs to) and an account's members page.
import type { FC } from 'hono/jsx';
import type { PendingInvite } from '../../../core/users/invites.ts';
import type { Membership, SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectSummary } from '../../../core/users/memberships.ts';
import { may } from '../../../core/users/permissions.ts';
import { ROLES } from '../../../core/users/schemas.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { FieldProblem, problemAttrs, type FieldProblems } from './field-problems.tsx';
import { AccountActivity } from './activity-pages.tsx';
import type { ActivityItem } from '../../../core/portal/activity.ts';
import type { ActivityNames } from './activity-words.ts';
import type { MyTask } from '../../../core/tasks/my-tasks.ts';
import { DueDay, KIND_WORDS, TaskProgress, taskPath, taskTitle } from './task-parts.tsx';

/** A stored time as the portal shows times: minutes, UTC. */
const utc = (at: string | Date) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const ProjectsPage: FC<{
  user: SessionUser;
  csrf: string;
  memberships: Membership[];
  projects: ProjectSummary[];
  error?: string | undefined;
  /** The create form's one-time token: sent twice, it creates once. */
  submission?: string | undefined;
  /** A refused new project: its account and the name typed, shown again in that account's form. */
  draft?: { accountId: string; name: string } | undefined;
  /** The member's open tasks across their accounts' projects (core/tasks/my-tasks.ts): none, no section. */
  myTasks?: MyTask[] | undefined;
  /** Today in UTC (YYYY-MM-DD), for "overdue". */
  today?: string | undefined;
}> = ({ user, csrf, memberships, projects, error, submission, draft, myTasks = [], today = '' }) => (
  <Layout title="Projects" user={user} csrf={csrf}>
    <h1>Projects</h1>
    {error ? <Notice kind="error">{error}</Notice> : null}
    {myTasks.length > 0 ? <MyTasks tasks={myTasks} today={today} /> : null}
    {memberships.length === 0 ? <p class="empty">You are not a member of any account yet. Ask an owner for an invitation link.</p> : null}
    {memberships.map((m) => {
      const own = projects.filter((p) => p.account_id === m.account_id);
      return (
        <section class="account" aria-labelledby={`acct-${m.account_id}`}>
          <div class="row between">
            <h2 id={`acct-${m.account_id}`}>
              {m.account_name} <span class="badge">{m.plan}</span> <span class="badge muted">{m.role}</span>
            </h2>
            {may(m.role, 'members.manage') ? <a href={`${P}/accounts/${m.account_id}/members`}>Members</a> : null}
          </div>
          {own.length === 0 ? (
            <p class="empty">No projects yet.{may(m.role, 'projects.create') ? ' Create the first one below.' : ''}</p>
          ) : (
            <ul class="cards">
              {own.map((p) => (
                <li>
                  <a class="card project" href={`${P}/projects/${p.id}`}>
                    <strong>{p.name}</strong>
                    <span class="hint">
                      {p.key_count} keys · {p.language_count} languages
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )}
          {may(m.role, 'projects.create') ? (
            <form method="post" action={`${P}/accounts/${m.account_id}/projects`} class="row">
              <CsrfField csrf={csrf} />
              {submission ? <input type="hidden" name="submission" value={submission} /> : null}
              <label class="grow">
                New project name
                <input
                  name="name"
                  required
                  maxlength={maxUnits(200)}
                  value={draft?.accountId === m.account_id ? draft.name : ''}
                  aria-invalid={draft?.accountId === m.account_id && error ? 'true' : undefined}
                  aria-describedby={draft?.accountId === m.account_id && error ? `new-project-error-${m.account_id}` : undefined}
                />
              </label>
              {draft?.accountId === m.account_id && error ? (
                <p class="field-error" id={`new-project-error-${m.account_id}`}>
                  Not created: {error}
                </p>
              ) : null}
              <button type="submit">Create project</button>
            </form>
          ) : null}
        </section>
      );
    })}
  </Layout>
);

/** "My tasks": the open tasks the member is assigned to, soonest due first, each linked to its page. */
const MyTasks: FC<{ tasks: MyTask[]; today: string }> = ({ tasks, today }) => (
  <section class="my-tasks" aria-labelledby="my-tasks">
    <h2 id="my-tasks">My tasks</h2>
    <div class="table-scroll">
      <table class="table stacked">
        <caption class="sr-only">Open tasks assigned to you</caption>
        <thead>
          <tr>
            <th scope="col">Project</th>
            <th scope="col">Task</th>
            <th scope="col">Kind</th>
            <th scope="col">Language</th>
            <th scope="col">Due</th>
            <th scope="col">Progress</th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((task) => (
            <tr>
              <td>{task.project_name}</td>
              <td>
                <a href={taskPath(task.project_id, task.number)}>{taskTitle(task)}</a>
              </td>
              <td>{KIND_WORDS[task.kind]}</td>
              <td>{task.language}</td>
              <td>
                <DueDay task={task} today={today} />
              </td>
              <td>
                <TaskProgress task={task} id={`my-task-${task.project_id}-${task.number}`} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  </section>
);

export const SecretShownOnce: FC<{ label: string; value: string; id: string }> = ({ label, value, id }) => (
  <div class="secret">
    <label for={id}>{label}</label>
    <div class="row">
      <input id={id} class="grow mono" readonly value={value} />
      <button type="button" data-copy={id}>
        Copy
      </button>
      <span id={`${id}-copied`} role="status" class="hint"></span>
    </div>
    <p class="hint">Shown once: copy it now. It cannot be shown again.</p>
  </div>
);

/** apiKey undefined: the form was sent again (a reload); the first answer showed the key. */
export const ProjectCreatedPage: FC<{ user: SessionUser; csrf: string; projectId: string; name: string; apiKey?: string | undefined }> = ({ user, csrf, projectId, name, apiKey }) => (
  <Layout title={`${name} created`} user={user} csrf={csrf}>
    <h1>{name} is ready</h1>
    {apiKey ? (
      <>
        <Notice kind="ok">The project was created with its first API key.</Notice>
        <SecretShownOnce label="API key" value={apiKey} id="new-api-key" />
      </>
    ) : (
      <Notice kind="ok">
        This form was already sent, and that created the project (nothing was created again). Its first API key was shown once, then: if it was not copied, create
        another in the API keys tab.
      </Notice>
    )}
    <p class="row wrap actions">
      <a class="button" href={`${P}/projects/${projectId}/languages`}>
        Add languages
      </a>
      <a href={`${P}/projects/${projectId}`}>Open the editor</a>
    </p>
  </Layout>
);

export type MemberRow = { user_id: string; email: string; role: string; languages: string[] | null };
/** `problems`: a refused invitation's, field by field (a role change's is said at its row). */
export type MembersDraft = { memberId?: string; role: string; languages: string; problems?: FieldProblems };

/** A refused invitation's problems (a draft without memberId is the invitation form's). */
const inviteProblemsOf = (draft: MembersDraft | undefined) => (draft && draft.memberId === undefined ? draft.problems : undefined);

/** A member's row as the refused form had it, else as stored. */
const shownRole = (m: MemberRow, draft: MembersDraft | undefined) =>
  draft?.memberId === m.user_id ? { role: draft.role, languages: draft.languages } : { role: m.role, languages: m.languages?.join(', ') ?? '' };

export const MembersPage: FC<{
  user: SessionUser;
  csrf: string;
  accountId: string;
  accountName: string;
  members: MemberRow[];
  inviteLink?: string | undefined;
  error?: string | undefined;
  notice?: string | undefined;
  /** Invitations not used yet and not expired. */
  invites?: PendingInvite[] | undefined;
  /** The account's own log (membership, invitations, the plan), a page of it. */
  activity?: { items: ActivityItem[]; next: number | null; names: ActivityNames } | undefined;
  /** The invitation form's one-time token: sent twice (a reload of the page showing the link), it creates once. */
  submission?: string | undefined;
  /**
   * What a refused form held, shown again in that form: an invitation's role and languages, or one
   * member's (memberId). Retyping only the wrong part must not send the defaults.
   */
  draft?: MembersDraft | undefined;
  /** Which page of members this is (`after`: the last email of the page before) and the next page's position. */
  membersPage?: { after?: string | undefined; next?: string | undefined } | undefined;
}> = ({ user, csrf, accountId, accountName, members, membersPage, inviteLink, error, notice, invites = [], activity, submission, draft }) => {
  // A row's forms come back to this page of members.
  const here = membersPage?.after === undefined ? '' : `?members_after=${encodeURIComponent(membersPage.after)}`;
  return (
  <Layout title={`Members of ${accountName}`} user={user} csrf={csrf}>
    <p class="crumbs">
      <a href={`${P}`}>Projects</a> / {accountName}
    </p>
    <h1>Members</h1>
    {error ? <Notice kind="error">{error}</Notice> : null}
    {notice ? <Notice kind="ok">{notice}</Notice> : null}
    {inviteLink ? <SecretShownOnce label="Invitation link (one use, expires in 7 days)" value={inviteLink} id="invite-link" /> : null}
    <div class="table-scroll">
      <table class="table stacked">
        <caption class="sr-only">Members of {accountName}</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role and languages</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const shown = shownRole(m, draft);
            const refused = draft?.memberId === m.user_id && error !== undefined;
            return (
            <tr>
              <td>{m.email}</td>
              <td>
                <form method="post" action={`${P}/accounts/${accountId}/members/${m.user_id}/role${here}`} class="row wrap">
                  <CsrfField csrf={csrf} />
                  <label>
                    <span class="sr-only">Role of {m.email}</span>
                    <select name="role">
                      {ROLES.map((r) => (
                        <option value={r} selected={r === shown.role}>
                          {r}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label>
                    <span class="sr-only">Languages of {m.email}</span>
                    <input
                      name="languages"
                      value={shown.languages}
                      placeholder="all"
                      size={10}
                      aria-invalid={refused ? 'true' : undefined}
                      aria-describedby={refused ? `role-error-${m.user_id}` : undefined}
                    />
                  </label>
                  {refused ? (
                    <p class="field-error" id={`role-error-${m.user_id}`}>
                      Not saved: {error}
                    </p>
                  ) : null}
                  <button type="submit" class="secondary" aria-label={`Save the role of ${m.email}`}>
                    Save
                  </button>
                </form>
              </td>
              <td>
                {m.user_id === user.id ? (
                  <span class="hint">you</span>
                ) : (
                  <form method="post" action={`${P}/accounts/${accountId}/members/${m.user_id}/remove${here}`} class="inline" data-confirm={`Remove ${m.email} from ${accountName}?`}>
                    <CsrfField csrf={csrf} />
                    <button type="submit" class="link danger" aria-label={`Remove ${m.email}`}>
                      Remove
                    </button>
                  </form>
                )}
              </td>
            </tr>
            );
          })}
        </tbody>
      </table>
    </div>
    {membersPage?.after !== undefined || membersPage?.next !== undefined ? (
      <nav class="pager" aria-label="Member pages">
        {membersPage.after !== undefined ? <a href={`${P}/accounts/${accountId}/members`}>First members</a> : null}
        {membersPage.next !== undefined ? (
          <a href={`${P}/accounts/${accountId}/members?members_after=${encodeURIComponent(membersPage.next)}`} rel="next">
            Next members
          </a>
        ) : null}
      </nav>
    ) : null}
    <h2>Pending invitations</h2>
    {invites.length === 0 ? (
      <p class="hint">No invitation is waiting to be used.</p>
    ) : (
      <div class="table-scroll">
        <table class="table stacked">
          <caption class="sr-only">Invitations of {accountName} not used yet</caption>
          <thead>
            <tr>
              <th scope="col">Role and languages</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invites.map((i) => (
              <tr>
                <td>
                  {i.role}
                  {i.languages ? ` (${i.languages.join(', ')})` : ''}
                </td>
                <td>
                  {utc(i.created_at)}
                  {i.created_by ? ` by ${i.created_by}` : ''}
                </td>
                <td>{utc(i.expires_at)}</td>
                <td>
                  <form
                    method="post"
                    action={`${P}/accounts/${accountId}/invites/${i.id}/revoke`}
                    class="inline"
                    data-confirm="Revoke this invitation? Its link stops working at once."
                  >
                    <CsrfField csrf={csrf} />
                    <button type="submit" class="link danger" aria-label={`Revoke the ${i.role} invitation created ${utc(i.created_at)}`}>
                      Revoke
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
    <h2>Invite someone</h2>
    <form method="post" action={`${P}/accounts/${accountId}/invites`} class="card stack">
      <CsrfField csrf={csrf} />
      {submission ? <input type="hidden" name="submission" value={submission} /> : null}
      <label>
        Role
        <select name="role" {...problemAttrs(inviteProblemsOf(draft), 'invite', 'role')}>
          {ROLES.map((r) => (
            <option value={r} selected={r === (draft && draft.memberId === undefined ? draft.role : 'translator')}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <FieldProblem problems={inviteProblemsOf(draft)} form="invite" name="role" />
      <label>
        Languages <span class="hint">(translators and reviewers only; comma-separated codes, empty for all)</span>
        <input name="languages" placeholder="de, fr" value={draft && draft.memberId === undefined ? draft.languages : ''} {...problemAttrs(inviteProblemsOf(draft), 'invite', 'languages')} />
      </label>
      <FieldProblem problems={inviteProblemsOf(draft)} form="invite" name="languages" />
      <button type="submit">Create invitation link</button>
    </form>
    {activity ? (
      <section id="account-activity">
        <AccountActivity accountId={accountId} accountName={accountName} {...activity} />
      </section>
    ) : null}
  </Layout>
  );
};
