// A project's Languages and API keys tabs.
import type { FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import type { ApiKeyInfo, CreatedApiKey } from '../../../core/accounts/api-key-schemas.ts';
import { TAB_REVOKED_KEYS, type ApiKeysTab } from '../../../core/accounts/admin-reads.ts';
import type { TrashCursor, TrashedGroup, TrashedKey } from '../../../core/portal/trash.ts';
import type { Usage } from '../../../core/usage/read-usage.ts';
import { may } from '../../../core/users/permissions.ts';
import { QUALITY_CHECKS } from '../../../core/quality/check-translation.ts';
import type { QualitySettings } from '../../../core/quality/approval-gate.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { FieldProblem, problemAttrs, type FieldProblems } from './field-problems.tsx';
import { ProjectNav } from './project-nav.tsx';
import { SecretShownOnce } from './projects-page.tsx';

type Common = { user: SessionUser; csrf: string; access: ProjectAccess; cache: { last_rebuilt_at: string | null; ready: boolean }; notice?: string | undefined; error?: string | undefined };

export const LanguagesPage: FC<
  Common & {
    /** openComments: comments not resolved yet on its live keys (core/comments/open-per-language.ts). */
    languages: { code: string; values: number; openComments: number }[];
    /** A removal to confirm: what it would delete, sent back with the confirmation (the removal checks it again). */
    confirm?: { code: string; values: number; digest: string; /** Comments on its values (core/comments), deleted with them. */ comments: number } | undefined;
    quality: QualitySettings | null;
    /** The code an Add refused, shown again in its field. */
    typedCode?: string | undefined;
  }
> = ({ user, csrf, access, cache, notice, error, languages, confirm, quality, typedCode }) => {
  const base = `${P}/projects/${access.projectId}`;
  const manage = may(access.role, 'languages.manage');
  return (
    <Layout title={`${access.projectName}: languages`} user={user} csrf={csrf}>
      <ProjectNav access={access} current="languages" csrf={csrf} cache={cache} />
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      {confirm ? (
        <form method="post" action={`${base}/languages/${confirm.code}/remove`} class="card stack danger-zone">
          <CsrfField csrf={csrf} />
          <input type="hidden" name="confirmed" value="yes" />
          <input type="hidden" name="values" value={String(confirm.values)} />
          <input type="hidden" name="digest" value={confirm.digest} />
          <p>
            Removing <strong>{confirm.code}</strong> deletes its <strong>{confirm.values}</strong> value{confirm.values === 1 ? '' : 's'} for good
            {confirm.comments > 0 ? (
              <>
                , and the <strong>{confirm.comments}</strong> comment{confirm.comments === 1 ? '' : 's'} on them
              </>
            ) : null}
            .
          </p>
          <div class="row">
            <button type="submit" class="danger">
              Remove {confirm.code} and its {confirm.values} values
            </button>
            <a href={`${base}/languages`}>Cancel</a>
          </div>
        </form>
      ) : null}
      {languages.length === 0 ? <p class="empty">No languages yet.</p> : null}
      <ul class="list">
        {languages.map((l) => (
          <li class="row between">
            <span>
              <strong class="mono">{l.code}</strong> <span class="hint">{l.values} values</span>
              {l.openComments > 0 ? (
                <>
                  {' · '}
                  <a href={`${base}?lang=${encodeURIComponent(l.code)}&open_comments=${encodeURIComponent(l.code)}`} class="hint">
                    {l.openComments} open comment{l.openComments === 1 ? '' : 's'}
                  </a>
                </>
              ) : null}
            </span>
            {manage ? (
              <form method="post" action={`${base}/languages/${l.code}/remove`} class="inline">
                <CsrfField csrf={csrf} />
                <button type="submit" class="link danger" aria-label={`Remove ${l.code}…`}>
                  Remove…
                </button>
              </form>
            ) : null}
          </li>
        ))}
      </ul>
      {manage ? (
        <form method="post" action={`${base}/languages`} class="row">
          <CsrfField csrf={csrf} />
          <label class="grow">
            Language code <span class="hint">(BCP 47: de, pt-BR, zh-Hant)</span>
            <input
              name="code"
              required
              maxlength={20}
              value={typedCode ?? ''}
              aria-invalid={typedCode !== undefined && error ? 'true' : undefined}
              aria-describedby={typedCode !== undefined && error ? 'add-language-error' : undefined}
            />
          </label>
          {typedCode !== undefined && error ? (
            <p class="field-error" id="add-language-error">
              Not added: {error}
            </p>
          ) : null}
          <button type="submit">Add language</button>
        </form>
      ) : null}
      {quality ? <QualityForm base={base} csrf={csrf} quality={quality} languages={languages.map((l) => l.code)} manage={manage} /> : null}
    </Layout>
  );
};

const when = (iso: string | null) => (iso ? `${iso.replace('T', ' ').slice(0, 16)} UTC` : null);

/** What a key may do, in a few words: its kind and, for a delivery key, what binds it. */
function scopeOf(k: ApiKeyInfo): string {
  if (k.kind === 'live') return 'Live: full access';
  const parts = ['Delivery: cached reads only'];
  if (k.allowed_languages) parts.push(`languages ${k.allowed_languages.join(', ')}`);
  if (k.allowed_origins) parts.push(`from ${k.allowed_origins.join(', ')}`);
  return parts.join('; ');
}

/** What a refused Create form held, shown again: a delivery key retyped must not come back as a live one. */
export type ApiKeyDraft = { name: string; kind: string; allowed_origins: string; allowed_languages: string; problems?: FieldProblems };

export const ApiKeysPage: FC<Common & { listed: ApiKeysTab; created?: CreatedApiKey | undefined; submission?: string | undefined; draft?: ApiKeyDraft | undefined }> = ({
  user,
  csrf,
  access,
  cache,
  notice,
  error,
  listed,
  created,
  submission,
  draft,
}) => {
  const delivery = draft?.kind === 'delivery';
  const { keys, activeNotShown, revokedNotShown } = listed;
  const base = `${P}/projects/${access.projectId}`;
  const label = (k: { id: string; name: string | null }) => k.name ?? `key ${k.id.slice(0, 8)}`;
  return (
    <Layout title={`${access.projectName}: API keys`} user={user} csrf={csrf}>
      <ProjectNav access={access} current="api-keys" csrf={csrf} cache={cache} />
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      {created ? <SecretShownOnce label={created.kind === 'delivery' ? 'New delivery key' : 'New API key'} value={created.key} id="new-api-key" /> : null}
      {keys.length === 0 ? <p class="empty">No API key yet.</p> : null}
      <div class="table-scroll">
        <table class="table">
          <caption class="sr-only">API keys of {access.projectName}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr data-api-key={k.id}>
                <td>
                  {label(k)}
                  {k.key_hint ? <div class="mono hint">{k.key_hint}</div> : null}
                </td>
                <td>{scopeOf(k)}</td>
                <td>{when(k.created_at)}</td>
                <td data-last-used>{when(k.last_used_at) ?? 'never'}</td>
                <td>{k.revoked_at ? `revoked ${k.revoked_at.slice(0, 10)}` : 'active'}</td>
                <td>
                  {k.revoked_at ? null : (
                    <form method="post" action={`${base}/api-keys/${k.id}/revoke`} class="inline" data-confirm="Revoke this key? Apps using it stop working at once.">
                      <CsrfField csrf={csrf} />
                      <button type="submit" class="link danger" aria-label={`Revoke ${label(k)}`}>
                        Revoke
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {activeNotShown > 0 ? (
        <p class="hint">
          {activeNotShown} more active {activeNotShown === 1 ? 'key is' : 'keys are'} not listed here: <code>GET /admin/v1/projects/{access.projectId}/api-keys</code> lists every key.
        </p>
      ) : null}
      {revokedNotShown > 0 ? (
        <p class="hint">
          {revokedNotShown} older revoked {revokedNotShown === 1 ? 'key is' : 'keys are'} not listed (the {TAB_REVOKED_KEYS} most recently revoked are).
        </p>
      ) : null}
      <form method="post" action={`${base}/api-keys`} class="card stack">
        <h2>Create a key</h2>
        <CsrfField csrf={csrf} />
        {submission ? <input type="hidden" name="submission" value={submission} /> : null}
        <label>
          Name <span class="hint">(optional: where it is used, such as "CI" or "iOS app")</span>
          <input name="name" maxlength={maxUnits(100)} value={draft?.name ?? ''} {...problemAttrs(draft?.problems, 'api-key', 'name')} />
        </label>
        <FieldProblem problems={draft?.problems} form="api-key" name="name" />
        <fieldset>
          <legend>Kind</legend>
          <label>
            <input type="radio" name="kind" value="live" checked={!delivery} /> Live key (key_live_…): everything, for servers and CI; keep it secret
          </label>
          <label>
            <input type="radio" name="kind" value="delivery" checked={delivery} /> Delivery key (delivery_…): reads published translations only; safe to ship in an app
          </label>
        </fieldset>
        <label>
          Allowed origins <span class="hint">(delivery keys, optional: one a line, such as https://app.example.com; empty for any)</span>
          <textarea name="allowed_origins" rows={2} {...problemAttrs(draft?.problems, 'api-key', 'allowed_origins')}>
            {draft?.allowed_origins ?? ''}
          </textarea>
        </label>
        <FieldProblem problems={draft?.problems} form="api-key" name="allowed_origins" />
        <label>
          Allowed languages <span class="hint">(delivery keys, optional: comma-separated codes; empty for all)</span>
          <input name="allowed_languages" value={draft?.allowed_languages ?? ''} {...problemAttrs(draft?.problems, 'api-key', 'allowed_languages')} />
        </label>
        <FieldProblem problems={draft?.problems} form="api-key" name="allowed_languages" />
        <button type="submit">Create API key</button>
      </form>
    </Layout>
  );
};

/**
 * The trash. A group's Restore names the delete its line shows (deleted_at): the route restores that
 * one or refuses, never a later delete of the group. Deleted keys come a page at a time (`next`:
 * where the Older link continues); `older`: this is not the newest page (the groups are listed there).
 */
export const TrashPage: FC<Common & { keys: TrashedKey[]; groups: TrashedGroup[]; next: TrashCursor | null; older?: boolean; at?: TrashCursor | undefined }> = ({
  user,
  csrf,
  access,
  cache,
  notice,
  error,
  keys,
  groups,
  next,
  older,
  at,
}) => {
  const base = `${P}/projects/${access.projectId}`;
  const when = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;
  const deletedGroups = groups.filter((g) => !g.live);
  const deletedTogether = groups.filter((g) => g.live);
  return (
    <Layout title={`${access.projectName}: trash`} user={user} csrf={csrf}>
      <ProjectNav access={access} current="trash" csrf={csrf} cache={cache} />
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      {older ? null : (
        <>
          <h2>Deleted groups</h2>
          {deletedGroups.length === 0 ? <p class="empty">No deleted group.</p> : null}
          <ul class="list">
            {deletedGroups.map((g) => (
              <li class="row between">
                <span>
                  <strong>{g.group_name}</strong> <span class="hint">{g.keys} keys, deleted {when(g.deleted_at)}</span>
                </span>
                <form method="post" action={`${base}/trash/groups/${encodeURIComponent(g.group_name)}/restore`} class="inline">
                  <CsrfField csrf={csrf} />
                  <input type="hidden" name="deleted_at" value={g.deleted_at} />
                  <button type="submit" class="secondary" aria-label={`Restore group ${g.group_name}`}>
                    Restore
                  </button>
                </form>
              </li>
            ))}
          </ul>
          {deletedTogether.length > 0 ? (
            <>
              {/* A group that still has keys was not deleted: some of its keys were, in one action. */}
              <h2>Keys deleted together</h2>
              <ul class="list">
                {deletedTogether.map((g) => (
                  <li class="row between">
                    <span>
                      {g.keys} keys of <strong>{g.group_name}</strong> <span class="hint">(the group still has other keys), deleted together {when(g.deleted_at)}</span>
                    </span>
                    <form method="post" action={`${base}/trash/groups/${encodeURIComponent(g.group_name)}/restore`} class="inline">
                      <CsrfField csrf={csrf} />
                      <input type="hidden" name="deleted_at" value={g.deleted_at} />
                      <button type="submit" class="secondary" aria-label={`Restore the ${g.keys} keys of ${g.group_name} deleted together`}>
                        Restore these {g.keys} keys
                      </button>
                    </form>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
      <h2>{older ? 'Older deleted keys' : 'Deleted keys'}</h2>
      {keys.length === 0 ? <p class="empty">{older ? 'No older deleted key.' : 'The trash is empty.'}</p> : null}
      <ul class="list">
        {keys.map((k) => (
          <li class="row between">
            <span>
              <strong class="mono">{k.key}</strong> <span class="badge muted">{k.group_name}</span> <span class="hint">deleted {when(k.deleted_at)}</span>
            </span>
            <form method="post" action={`${base}/trash/keys/${k.id}/restore`} class="inline">
              <CsrfField csrf={csrf} />
              {/* An older page: the restore comes back to it, not to the newest. */}
              {at ? (
                <>
                  <input type="hidden" name="before" value={at.deletedAt} />
                  <input type="hidden" name="key" value={at.key} />
                </>
              ) : null}
              <button type="submit" class="secondary" aria-label={`Restore key ${k.key}`}>
                Restore
              </button>
            </form>
          </li>
        ))}
      </ul>
      <nav class="pager" aria-label="Pages">
        {older ? <a href={`${base}/trash`}>Newest</a> : null}
        {next ? (
          <a href={`${base}/trash?${new URLSearchParams({ before: next.deletedAt, key: next.key })}`} rel="next">
            Older
          </a>
        ) : null}
      </nav>
      <p class="hint">A restore brings the key back with its values. If a live key has taken its name meanwhile, the restore is refused (rename or delete that key first).</p>
    </Layout>
  );
};

const Meter: FC<{ label: string; used: number; limit: number | null; hint: string }> = ({ label, used, limit, hint }) =>
  limit === null ? (
    <div class="card stack">
      <strong>{label}</strong>
      <span>
        {used.toLocaleString('en-US')} <span class="hint">(no limit on this plan)</span>
      </span>
    </div>
  ) : (
    <div class="card stack">
      <strong>{label}</strong>
      <meter min={0} max={Math.max(limit, 1)} value={Math.min(used, Math.max(limit, 1))} high={Math.max(limit, 1) * 0.8} aria-label={label}>
        {used} of {limit}
      </meter>
      <span>
        {used.toLocaleString('en-US')} of {limit.toLocaleString('en-US')} <span class="hint">{hint}</span>
      </span>
    </div>
  );

export const UsagePage: FC<Common & { usage: Usage }> = ({ user, csrf, access, cache, usage }) => (
  <Layout title={`${access.projectName}: usage`} user={user} csrf={csrf}>
    <ProjectNav access={access} current="usage" csrf={csrf} cache={cache} />
    <Meter label="API calls today" used={usage.calls_today} limit={usage.daily_limit} hint="(the account's daily limit; resets at midnight UTC)" />
    <Meter
      label="Translation units this cycle"
      used={usage.translation_units_used}
      limit={usage.translation_units_allowance}
      hint={`(the account's monthly allowance; resets ${usage.cycle_resets_at.slice(0, 10)})`}
    />
  </Layout>
);

/** What each check looks at, in the words of docs/quality.md. */
const CHECK_LABELS: Record<(typeof QUALITY_CHECKS)[number], string> = {
  icu_syntax: 'ICU syntax: the value parses as ICU MessageFormat',
  placeholders: "Placeholders: the same placeholders as the source",
  plurals: 'Plurals: every plural form the language needs',
  html_tags: 'HTML tags: balanced, and the same as the source',
  whitespace: "Whitespace: leading and trailing spaces as in the source",
  punctuation: 'Punctuation: ends like the source',
  length: 'Length: not over 3 times the source',
  max_length: "Character limit: within the key's limit, where it has one",
  glossary: 'Glossary: the agreed translation of each glossary term in the source',
  forbidden_terms: "Forbidden terms: none of the glossary's forbidden words, in the source language too",
};

/** The project's source language and the quality checks that block approval (owners and developers change them). */
const QualityForm: FC<{ base: string; csrf: string; quality: QualitySettings; languages: string[]; manage: boolean }> = ({ base, csrf, quality, languages, manage }) => {
  const blocking = new Set<string>(quality.blocking);
  return (
    <form method="post" action={`${base}/quality`} class="card stack" aria-labelledby="quality-title">
      <h2 id="quality-title">Quality</h2>
      <CsrfField csrf={csrf} />
      <label>
        Source language <span class="hint">(translation memory, machine translation and the checks compare with it)</span>
        <select name="source_language" disabled={!manage}>
          {(languages.includes(quality.sourceLanguage) ? languages : [quality.sourceLanguage, ...languages]).map((code) => (
            <option value={code} selected={code === quality.sourceLanguage}>
              {code}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>Checks that block approval <span class="hint">(the others only warn)</span></legend>
        {QUALITY_CHECKS.map((check) => (
          <label class="row">
            <input type="checkbox" name="quality_blocking" value={check} checked={blocking.has(check)} disabled={!manage} /> {CHECK_LABELS[check]}
          </label>
        ))}
      </fieldset>
      {manage ? <button type="submit">Save quality settings</button> : null}
    </form>
  );
};
