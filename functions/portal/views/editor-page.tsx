// The editor: one page of keys (server-side filters and keyset pagination) with the values of the
// chosen languages side by side. Each value is its own small form, so it works without script; the
// portal script saves it in place instead (fetch + X-CSRF-Token) and keeps keyboard focus.
import type { FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { EditorPage as EditorData } from '../../../core/portal/editor-page.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { may, mayEditLanguage } from '../../../core/users/permissions.ts';
import { TRANSLATION_STATUSES } from '../../../core/translations/schemas.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { ProjectNav } from './project-nav.tsx';

export type EditorFilters = { languages: string[]; search?: string | undefined; group?: string | undefined; status?: string | undefined; missing?: string | undefined; after?: string | undefined };

export function editorQuery(f: EditorFilters, after?: string): string {
  const q = new URLSearchParams();
  for (const l of f.languages) q.append('lang', l);
  if (f.search) q.set('q', f.search);
  if (f.group) q.set('group', f.group);
  if (f.status) q.set('status', f.status);
  if (f.missing) q.set('missing', f.missing);
  if (after) q.set('after', after);
  return q.toString();
}

export const EditorView: FC<{
  user: SessionUser;
  csrf: string;
  access: ProjectAccess;
  allLanguages: string[];
  groups: string[];
  filters: EditorFilters;
  page: EditorData;
  cache: { last_rebuilt_at: string | null; ready: boolean };
  publishing?: boolean;
  notice?: string | undefined;
  error?: string | undefined;
}> = ({ user, csrf, access, allLanguages, groups, filters, page, cache, publishing, notice, error }) => {
  const base = `${P}/projects/${access.projectId}`;
  const here = `${base}?${editorQuery(filters, filters.after)}`;
  const statuses = TRANSLATION_STATUSES.filter((s) => s !== 'approved' || may(access.role, 'values.approve'));
  return (
    <Layout title={`${access.projectName}: editor`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="editor" csrf={csrf} cache={cache} publishing={publishing ?? false} />
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      {allLanguages.length === 0 ? (
        <p class="empty">
          This project has no languages yet.{' '}
          {may(access.role, 'languages.manage') ? <a href={`${base}/languages`}>Add the first one</a> : 'Ask a developer to add one.'}
        </p>
      ) : null}
      <form method="get" action={base} class="filters" role="search" aria-label="Filter keys">
        <label class="grow">
          Search keys and values
          <input type="search" name="q" value={filters.search ?? ''} maxlength={200} />
        </label>
        <label>
          Group
          <select name="group">
            <option value="">All groups</option>
            {groups.map((g) => (
              <option value={g} selected={g === filters.group}>
                {g}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status">
            <option value="">Any status</option>
            {TRANSLATION_STATUSES.map((s) => (
              <option value={s} selected={s === filters.status}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Missing in
          <select name="missing">
            <option value="">—</option>
            {allLanguages.map((l) => (
              <option value={l} selected={l === filters.missing}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <fieldset class="langs">
          <legend>Languages shown</legend>
          {allLanguages.map((l) => (
            <label class="check">
              <input type="checkbox" name="lang" value={l} checked={filters.languages.includes(l)} /> {l}
            </label>
          ))}
        </fieldset>
        <button type="submit">Apply</button>
      </form>

      {may(access.role, 'keys.manage') ? (
        <details class="card">
          <summary>New key</summary>
          <form method="post" action={`${base}/keys`} class="row wrap">
            <CsrfField csrf={csrf} />
            <input type="hidden" name="return_to" value={here} />
            <label class="grow">
              Key name
              <input name="key" required maxlength={500} placeholder="home.title" />
            </label>
            <label>
              Group
              <input name="group_name" maxlength={200} placeholder="Default" />
            </label>
            <label class="grow">
              Description <span class="hint">(context for translators)</span>
              <input name="description" maxlength={1000} />
            </label>
            <button type="submit">Create key</button>
          </form>
        </details>
      ) : null}

      {page.rows.length > 0 ? (
        <form method="post" action={`${base}/bulk`} id="bulk" class="row wrap bulk">
          <CsrfField csrf={csrf} />
          <input type="hidden" name="return_to" value={here} />
          {filters.languages.map((l) => (
            <input type="hidden" name="lang" value={l} />
          ))}
          <label>
            With the selected keys
            <select name="action">
              {may(access.role, 'values.approve') ? <option value="approved">Approve values ({filters.languages.join(', ')})</option> : null}
              <option value="review">Send values to review ({filters.languages.join(', ')})</option>
              <option value="draft">Set values back to draft ({filters.languages.join(', ')})</option>
              {may(access.role, 'keys.manage') ? <option value="delete">Delete keys</option> : null}
            </select>
          </label>
          <button type="submit" data-confirm="Apply this to every selected key?">
            Apply to selected
          </button>
        </form>
      ) : null}
      {page.rows.length === 0 ? (
        <p class="empty">{filters.search || filters.group || filters.status || filters.missing ? 'No key matches these filters.' : 'No keys yet.'}</p>
      ) : (
        <div class="table-scroll">
          <table class="table editor">
            <caption class="sr-only">Keys and their values</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span class="sr-only">Select</span>
                </th>
                <th scope="col">Key</th>
                {filters.languages.map((l) => (
                  <th scope="col">{l}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {page.rows.map((row) => (
                <tr>
                  <td>
                    <input type="checkbox" name="key" value={row.id} form="bulk" aria-label={`Select ${row.key}`} />
                  </td>
                  <th scope="row" class="keycell">
                    <span class="mono keyname">{row.key}</span>
                    <span class="badge muted">{row.group_name}</span>
                    {row.description ? <p class="hint">{row.description}</p> : null}
                    {may(access.role, 'keys.manage') ? (
                      <details>
                        <summary class="hint">Edit</summary>
                        <form method="post" action={`${base}/keys/${row.id}`} class="stack">
                          <CsrfField csrf={csrf} />
                          <input type="hidden" name="return_to" value={here} />
                          <label>
                            Group
                            <input name="group_name" value={row.group_name} maxlength={200} required />
                          </label>
                          <label>
                            Description
                            <textarea name="description" rows={2} maxlength={1000}>
                              {row.description ?? ''}
                            </textarea>
                          </label>
                          <button type="submit" class="secondary" aria-label={`Save key ${row.key}`}>
                            Save key
                          </button>
                        </form>
                      </details>
                    ) : null}
                    {may(access.role, 'keys.manage') ? (
                      <form method="post" action={`${base}/keys/${row.id}/delete`} data-confirm={`Delete the key ${row.key}? It can be restored from the trash.`}>
                        <CsrfField csrf={csrf} />
                        <input type="hidden" name="return_to" value={here} />
                        <button type="submit" class="link danger" aria-label={`Delete key ${row.key}`}>
                          Delete
                        </button>
                      </form>
                    ) : null}
                  </th>
                  {filters.languages.map((l) => {
                    const value = row.values[l];
                    const editable = mayEditLanguage(access, l) && (value?.status !== 'approved' || may(access.role, 'values.approve'));
                    const id = `v-${row.id}-${l}`;
                    return (
                      <td>
                        <form method="post" action={`${base}/keys/${row.id}/values/${l}`} class="value" data-inline>
                          <CsrfField csrf={csrf} />
                          <input type="hidden" name="return_to" value={here} />
                          <label for={id} class="sr-only">
                            {`${row.key} in ${l}`}
                          </label>
                          <textarea id={id} name="value" rows={2} maxlength={10000} readonly={!editable} class={value ? '' : 'missing'}>
                            {value?.value ?? ''}
                          </textarea>
                          <div class="row">
                            <label class="sr-only" for={`${id}-s`}>{`Status of ${row.key} in ${l}`}</label>
                            <select id={`${id}-s`} name="status" disabled={!editable} class={`status status-${value?.status ?? 'none'}`}>
                              {(editable ? statuses : TRANSLATION_STATUSES).map((s) => (
                                <option value={s} selected={s === (value?.status ?? 'draft')}>
                                  {s}
                                </option>
                              ))}
                            </select>
                            {editable ? <button type="submit">Save</button> : <span class="hint">read only</span>}
                            {value ? (
                              <a href={`${base}/keys/${row.id}/values/${l}/history`} class="hint" aria-label={`History of ${row.key} in ${l}`}>
                                History
                              </a>
                            ) : null}
                            <output class="saved" aria-live="polite"></output>
                          </div>
                        </form>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages">
        {filters.after ? <a href={`${base}?${editorQuery(filters)}`}>First page</a> : null}
        {page.next ? (
          <a href={`${base}?${editorQuery(filters, page.next)}`} rel="next">
            Next page
          </a>
        ) : null}
      </nav>
    </Layout>
  );
};
