// The activity log (every write to the project, by whom and when) and one value's history with a
// one-click revert.
import type { FC } from 'hono/jsx';
import type { ActivityItem } from '../../../core/portal/activity.ts';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { ProjectNav } from './project-nav.tsx';

type Common = { user: SessionUser; csrf: string; access: ProjectAccess; cache: { last_rebuilt_at: string | null; ready: boolean } };

export const actorLabel = (e: ActivityItem) =>
  e.actor_type === 'user' ? (e.actor_email ?? 'a removed user') : e.actor_type === 'api_key' ? `API key ${e.actor_id?.slice(0, 8)}` : e.actor_type === 'admin' ? 'the operator (admin token)' : `tms (${e.actor_id})`;

const when = (iso: string) => `${iso.replace('T', ' ').slice(0, 19)} UTC`;

function summary(e: ActivityItem): string {
  const after = e.after as Record<string, unknown> | null;
  const before = e.before as Record<string, unknown> | null;
  if (e.type === 'translation.written' && after) {
    const from = before ? `"${String(before.value)}" (${String(before.status)})` : 'nothing';
    return `${from} → "${String(after.value)}" (${String(after.status)})`;
  }
  if (e.type === 'translation.imported' && after) return Object.entries(after).map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', ');
  return after ? JSON.stringify(after).slice(0, 200) : before ? `was ${JSON.stringify(before).slice(0, 200)}` : '';
}

export const ActivityPage: FC<Common & { items: ActivityItem[]; next: number | null; keyNames: Record<string, string> }> = ({ user, csrf, access, cache, items, next, keyNames }) => {
  const base = `${P}/projects/${access.projectId}`;
  return (
    <Layout title={`${access.projectName}: activity`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="activity" csrf={csrf} cache={cache} />
      {items.length === 0 ? <p class="empty">Nothing has happened yet.</p> : null}
      <table class="table">
        <caption class="sr-only">Activity, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {items.map((e) => {
            const [keyId, language] = e.entity_type === 'translation' ? e.entity_id.split('/') : [];
            const target = keyId && language ? `${keyNames[keyId] ?? keyId.slice(0, 8)} (${language})` : e.entity_type === 'key' ? (keyNames[e.entity_id] ?? e.entity_id.slice(0, 8)) : e.entity_id.length > 40 ? e.entity_id.slice(0, 8) : e.entity_id;
            return (
              <tr>
                <td class="nowrap">{when(e.occurred_at)}</td>
                <td>{actorLabel(e)}</td>
                <td>
                  {e.type} <span class="mono">{target}</span>
                  {keyId && language ? (
                    <>
                      {' '}
                      <a href={`${base}/keys/${keyId}/values/${language}/history`}>history</a>
                    </>
                  ) : null}
                </td>
                <td class="change">{summary(e)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <nav class="pager" aria-label="Pages">
        {next !== null ? (
          <a href={`${base}/activity?before=${next}`} rel="next">
            Older
          </a>
        ) : null}
      </nav>
    </Layout>
  );
};

export const HistoryPage: FC<Common & { keyName: string; language: string; keyId: string; items: ActivityItem[]; mayRevert: boolean; notice?: string | undefined }> = ({
  user,
  csrf,
  access,
  cache,
  keyName,
  language,
  keyId,
  items,
  mayRevert,
  notice,
}) => {
  const base = `${P}/projects/${access.projectId}`;
  return (
    <Layout title={`${keyName} in ${language}: history`} user={user} csrf={csrf}>
      <ProjectNav access={access} current="activity" csrf={csrf} cache={cache} />
      <h2>
        <span class="mono">{keyName}</span> in {language}
      </h2>
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {items.length === 0 ? <p class="empty">No recorded change of this value.</p> : null}
      <ol class="list">
        {items.map((e, i) => {
          const after = e.after as { value?: string; status?: string } | null;
          return (
            <li>
              <div class="row between wrap">
                <span>
                  <strong>{e.type === 'translation.deleted' ? 'deleted' : `"${after?.value ?? ''}"`}</strong> {after?.status ? <span class={`badge status-${after.status}`}>{after.status}</span> : null}
                  <br />
                  <span class="hint">
                    {actorLabel(e)}, {when(e.occurred_at)}
                    {i === 0 ? ' (current)' : ''}
                  </span>
                </span>
                {mayRevert && i > 0 && e.type === 'translation.written' ? (
                  <form method="post" action={`${base}/keys/${keyId}/values/${language}/revert`} class="inline">
                    <CsrfField csrf={csrf} />
                    <input type="hidden" name="event_id" value={String(e.id)} />
                    <button type="submit" class="secondary" aria-label={`Revert to this: the version of ${when(e.occurred_at)}`}>
                      Revert to this
                    </button>
                  </form>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      <p>
        <a href={`${base}/activity`}>All activity</a>
      </p>
    </Layout>
  );
};
