// The editor: one page of keys (server-side filters and keyset pagination) with the values of the
// chosen languages side by side. Each value is its own small form, so it works without script; the
// portal script saves it in place instead (fetch + X-CSRF-Token) and keeps keyboard focus. Each value
// form carries the version it shows ("none" for a value that did not exist), so a change made
// meanwhile by someone else is refused (412) with a message next to the value instead of being
// overwritten; without script the refused form comes back with the typed text kept. A form that
// fails comes back with its message next to the field (aria-describedby, aria-invalid). Values
// carry their language and writing direction (lang, dir). The bulk form carries the version of
// every value shown and the key form the fields as shown, so neither writes over a change made
// after the page was loaded. A key's tags show beside its name, each a link to the keys with that tag.
import type { FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { EditorPage as EditorData } from '../../../core/portal/editor-page.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { may, mayEditLanguage } from '../../../core/users/permissions.ts';
import { TRANSLATION_STATUSES } from '../../../core/translations/schemas.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { ProjectNav } from './project-nav.tsx';
import type { TranslateResult } from '../../../core/translate/translate-missing.ts';
import { TranslateError, TranslateOutcome, Warnings } from './assistant-pages.tsx';
import { textAttrs } from '../../../core/languages/text-direction.ts';
import { shownLength } from '../../../core/quality/max-length.ts';
import { CHOICE_HEAD } from '../../../core/quality/icu.ts';
import { MAX_LENGTH_LIMIT } from '../../../core/keys/schemas.ts';
import { GlossaryHints, glossaryHintLines } from './glossary-page.tsx';

export type EditorFilters = { languages: string[]; search?: string | undefined; group?: string | undefined; tag?: string | undefined; status?: string | undefined; missing?: string | undefined; outdated?: string | undefined; openComments?: string | undefined; problems?: string | undefined; task?: string | undefined; cursor?: string | undefined };

/** A failed form of the editor: which form (new-key, rename-group, key-<id>, bulk), which field, what went wrong. */
/** A form refused: where to say why, and what was typed (shown again, so nothing is lost). */
export type FormError = { form: string; field: string; message: string; values?: Record<string, string> };

/**
 * A value save refused without script (someone else changed it: 412; or invalid: 422): the
 * editor comes back with what was typed still in the value's field, the status chosen, and the
 * message next to the value. `changed` (412): the stored text and status are shown beside it and
 * the form names the stored version, so Save again replaces what it shows, knowingly (and is
 * refused again if it changes once more); otherwise the form keeps the version it was sent with.
 * keyName: for a key this page no longer lists (the filters).
 */
export type ValueError = {
  keyId: string;
  keyName: string;
  language: string;
  value: string;
  status: string;
  version: string | undefined;
  message: string;
  changed?: boolean;
  /** For a value changed meanwhile: what is stored now (null: no value), shown when its row is not on the page. */
  stored?: { value: string; status: string } | null | undefined;
};

/** The attributes that tie a field to its error message, and the message element (or nothing). */
function fieldError(error: FormError | undefined, form: string, field: string) {
  if (!error || error.form !== form || error.field !== field) return { attrs: {}, message: null };
  const id = `err-${form}-${field}`;
  return {
    attrs: { 'aria-invalid': 'true', 'aria-describedby': id },
    message: (
      <p id={id} class="field-error" role="alert">
        {error.message}
      </p>
    ),
  };
}

/** A form's error that is about none of its fields: shown at the top of the form. */
function formLevelError(error: FormError | undefined, form: string, fields: string[]) {
  if (!error || error.form !== form || fields.includes(error.field)) return null;
  return (
    <p class="field-error" role="alert">
      {error.message}
    </p>
  );
}

/** A key's character limit as its form shows it: "" for none. */
const limitText = (maxLength: number | null) => (maxLength === null ? '' : String(maxLength));

/**
 * The count under a value whose key has a character limit, as the max_length check measures it
 * (shownLength: graphemes, a plural or select by its longest form); over the limit it says by how
 * much, in words (not only the colour). The portal's script keeps it up to date while typing.
 */
export function counterText(text: string, max: number): { text: string; over: boolean } {
  const n = shownLength(text);
  const longest = CHOICE_HEAD.test(text) ? ' (its longest form)' : '';
  return { text: `${n} / ${max} characters${longest}${n > max ? `: ${n - max} over` : ''}`, over: n > max };
}

/** The Character limit field of the key forms: a number, empty for none. */
const LimitInput: FC<{ value: string | undefined; error: ReturnType<typeof fieldError> }> = ({ value, error }) => (
  <label>
    Character limit <span class="hint">(optional: the most characters a value should have)</span>
    <input name="max_length" type="number" min="1" max={String(MAX_LENGTH_LIMIT)} inputmode="numeric" value={value} {...error.attrs} />
    {error.message}
  </label>
);

/** A key's tags as its form shows them (and reads them back: a tag has no comma). */
export const tagsText = (tags: readonly string[]) => tags.join(', ');

/** A filter that names one of the project's languages ("—": none), as the editor's form has several. */
const LanguageFilter: FC<{ label: string; name: string; languages: string[]; chosen: string | undefined }> = ({ label, name, languages, chosen }) => (
  <label>
    {label}
    <select name={name}>
      <option value="">—</option>
      {languages.map((l) => (
        <option value={l} selected={l === chosen}>
          {l}
        </option>
      ))}
    </select>
  </label>
);

/** A value's comments, counted (with how many are open, when some are resolved): its link's words in the editor. */
const commentCount = (n: number, open = 0) => `${n} ${n === 1 ? 'comment' : 'comments'}${open > 0 && open < n ? `, ${open} open` : open === 0 ? ', resolved' : ''}`;

/** "1 screenshot", "3 screenshots": the link beside a key that screenshots show. */
const screenshotCount = (n: number) => `${n} ${n === 1 ? 'screenshot' : 'screenshots'}`;

export function editorQuery(f: EditorFilters, cursor?: string): string {
  const q = new URLSearchParams();
  for (const l of f.languages) q.append('lang', l);
  if (f.search) q.set('q', f.search);
  if (f.group) q.set('group', f.group);
  if (f.tag) q.set('tag', f.tag);
  if (f.status) q.set('status', f.status);
  if (f.missing) q.set('missing', f.missing);
  if (f.outdated) q.set('outdated', f.outdated);
  if (f.openComments) q.set('open_comments', f.openComments);
  if (f.problems) q.set('problems', f.problems);
  if (f.task) q.set('task', f.task);
  if (cursor) q.set('cursor', cursor);
  return q.toString();
}

export const EditorView: FC<{
  user: SessionUser;
  csrf: string;
  access: ProjectAccess;
  allLanguages: string[];
  groups: string[];
  /** The project's tags with their live keys (core/keys/list-tags.ts), for the tag filter. */
  tags: { name: string; keys: number }[];
  /** The project's open tasks (and the one filtered by), for the Task filter: `#3 name`. */
  tasks?: { number: number; name: string }[] | undefined;
  filters: EditorFilters;
  page: EditorData;
  cache: { last_rebuilt_at: string | null; ready: boolean; pending?: boolean };
  notice?: string | undefined;
  error?: string | undefined;
  formError?: FormError | undefined;
  /** The result of "Translate missing", or why it failed. */
  translated?: TranslateResult | undefined;
  translateError?: string | undefined;
  valueError?: ValueError | undefined;
  /** A machine translation provider is configured (else Translate missing fills from memory only). */
  machineTranslation?: boolean | undefined;
  /** Key id -> how many screenshots show it, for the page's keys that have any (core/screenshots/screenshot-counts.ts). */
  screenshots?: Readonly<Record<string, number>> | undefined;
}> = ({ user, csrf, access, allLanguages, groups, tags, tasks = [], filters, page, cache, notice, error, formError, translated, translateError, valueError, machineTranslation, screenshots = {} }) => {
  const base = `${P}/projects/${access.projectId}`;
  // A key's screenshots are on its value's page: in the first shown language being translated (the
  // source's when it is the only one shown); a key's screenshots are the same in every language.
  const screenshotsLanguage = filters.languages.find((l) => l !== page.sourceLanguage) ?? filters.languages[0] ?? page.sourceLanguage;
  const here = `${base}?${editorQuery(filters, filters.cursor)}`;
  // A bulk status change touches only the shown languages the member may edit: say which.
  const editable = filters.languages.filter((l) => mayEditLanguage(access, l)).join(', ') || 'none of the shown languages';
  const typed = (form: string, name: string) => (formError?.form === form ? formError.values?.[name] : undefined);
  const newKeyName = fieldError(formError, 'new-key', 'key');
  const newKeyGroup = fieldError(formError, 'new-key', 'group_name');
  const newKeyDescription = fieldError(formError, 'new-key', 'description');
  const newKeyTags = fieldError(formError, 'new-key', 'tags');
  const newKeyLimit = fieldError(formError, 'new-key', 'max_length');
  const renameTo = fieldError(formError, 'rename-group', 'new_name');
  const renameTagTo = fieldError(formError, 'rename-tag', 'name');
  const filteredTag = filters.tag ? tags.find((t) => t.name === filters.tag) : undefined;
  const bulkAction = fieldError(formError, 'bulk', 'action');
  const bulkTag = fieldError(formError, 'bulk', 'tag');
  // The tag filter's choices: the chosen tag stays listed (and chosen) when no live key has it any more.
  const tagChoices = filters.tag && !tags.some((t) => t.name === filters.tag) ? [...tags, { name: filters.tag, keys: 0 }] : tags;
  // A refused bulk action comes back with its selection and action kept.
  const selected = typed('bulk', 'key')?.split(',') ?? [];
  const chosenAction = typed('bulk', 'action');
  const statuses = TRANSLATION_STATUSES.filter((s) => s !== 'approved' || may(access.role, 'values.approve'));
  // "Translate missing" writes drafts: for the shown languages this member may edit, never the source.
  const translatable = may(access.role, 'values.edit') ? filters.languages.filter((l) => l !== page.sourceLanguage && mayEditLanguage(access, l)) : [];
  // The glossary terms of each key's source text, with their translations in the shown languages (a
  // forbidden term's said as words not to use: glossary-page.tsx, GlossaryHints): under the source
  // text when its language is shown (else under the key), and read with each value's field.
  const hintsOf = (row: EditorData['rows'][number]) => glossaryHintLines(row.glossary, filters.languages.filter((l) => l !== page.sourceLanguage));
  const sourceShown = filters.languages.includes(page.sourceLanguage);
  return (
    <Layout title={`${access.projectName}: editor`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="editor" csrf={csrf} cache={cache} here={here} />
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
          <input type="search" name="q" value={filters.search ?? ''} maxlength={maxUnits(200)} />
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
        {tagChoices.length > 0 ? (
          // Only in a project with tags (or with one chosen): "Any tag" alone would be a choice of nothing.
          <label>
            Tag
            <select name="tag">
              <option value="">Any tag</option>
              {tagChoices.map((t) => (
                <option value={t.name} selected={t.name === filters.tag}>
                  {`${t.name} (${t.keys})`}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {tasks.length > 0 ? (
          // Only in a project with open tasks (or with one chosen): the keys of one task, as its page's "Open in the editor" shows them.
          <label>
            Task
            <select name="task">
              <option value="">Any task</option>
              {tasks.map((t) => (
                <option value={String(t.number)} selected={String(t.number) === filters.task}>
                  {`#${t.number} ${t.name}`}
                </option>
              ))}
            </select>
          </label>
        ) : null}
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
        <LanguageFilter label="Missing in" name="missing" languages={allLanguages} chosen={filters.missing} />
        <LanguageFilter label="Outdated in" name="outdated" languages={allLanguages} chosen={filters.outdated} />
        <LanguageFilter label="Open comments" name="open_comments" languages={allLanguages} chosen={filters.openComments} />
        <LanguageFilter label="Has problems in" name="problems" languages={allLanguages} chosen={filters.problems} />
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

      {may(access.role, 'keys.manage') && filters.group && groups.includes(filters.group) ? (
        <form method="post" action={`${base}/groups/${encodeURIComponent(filters.group)}/rename`} class="row wrap card">
          <CsrfField csrf={csrf} />
          <input type="hidden" name="return_to" value={here} />
          <label class="grow">
            {`Rename the group ${filters.group} to`}
            <input name="new_name" required maxlength={maxUnits(200)} value={formError?.form === 'rename-group' ? formError.values?.new_name : filters.group} {...renameTo.attrs} />
            {renameTo.message}
          </label>
          <button type="submit" class="secondary">
            Rename group
          </button>
          {formLevelError(formError, 'rename-group', ['new_name'])}
        </form>
      ) : null}

      {may(access.role, 'keys.manage') && filteredTag ? (
        // The tag filtered by, across the project (core/keys/project-tags.ts): renamed on every key
        // that has it, or taken off them all. Beside the filter, as the group's rename is.
        <div class="row wrap card" id="manage-tag">
          <form method="post" action={`${base}/tags/${encodeURIComponent(filteredTag.name)}/rename`} class="row wrap grow">
            <CsrfField csrf={csrf} />
            <input type="hidden" name="return_to" value={here} />
            <label class="grow">
              {`Rename the tag ${filteredTag.name} to`}
              <input name="name" required maxlength={maxUnits(100)} value={formError?.form === 'rename-tag' ? formError.values?.name : filteredTag.name} {...renameTagTo.attrs} />
              {renameTagTo.message}
            </label>
            <button type="submit" class="secondary">
              Rename tag
            </button>
            {formLevelError(formError, 'rename-tag', ['name'])}
          </form>
          <form
            method="post"
            action={`${base}/tags/${encodeURIComponent(filteredTag.name)}/delete`}
            data-confirm={`Take the tag ${filteredTag.name} off its ${filteredTag.keys === 1 ? 'key' : `${filteredTag.keys} keys`}? No key is deleted.`}
          >
            <CsrfField csrf={csrf} />
            <input type="hidden" name="return_to" value={here} />
            <button type="submit" class="secondary">{`Delete tag (${filteredTag.keys === 1 ? '1 key' : `${filteredTag.keys} keys`})`}</button>
            {formLevelError(formError, 'delete-tag', ['tag'])}
          </form>
        </div>
      ) : null}

      {translatable.length ? (
        // Closed until asked for: an occasional action, and on a phone its form and paragraph stood
        // between the filters and the first value (its outcome is shown below, outside it).
        <details class="card" id="translate-missing-box">
          <summary>Translate missing values</summary>
        <form method="post" action={`${base}/translate`} class="row wrap" id="translate-missing" aria-label="Translate missing values">
          <CsrfField csrf={csrf} />
          <input type="hidden" name="return_to" value={here} />
          {filters.group ? <input type="hidden" name="group" value={filters.group} /> : null}
          <label>
            Translate missing values into
            <select name="language">
              {translatable.map((l) => (
                <option value={l}>{l}</option>
              ))}
            </select>
          </label>
          <button type="submit" class="secondary">
            Translate missing
          </button>
          <p class="hint grow">
            {filters.group ? `Keys of the group ${filters.group}` : 'Every key'} without a value:{' '}
            {machineTranslation
              ? 'translation memory first (free), then machine translation (translation units)'
              : 'from the translation memory only (no machine translation provider is configured on this server)'}
            , saved as drafts from the {page.sourceLanguage} values.
          </p>
        </form>
        </details>
      ) : null}
      {valueError && !page.rows.some((r) => r.id === valueError.keyId && filters.languages.includes(valueError.language)) ? (
        // The refused value's key is not on this page any more (the filters): its text is kept here.
        <div class="notice notice-error" role="alert">
          <p>{`${valueError.keyName} in ${valueError.language}: ${valueError.message}`}</p>
          <label>
            Your text (not saved)
            <textarea rows={2} readonly {...textAttrs(valueError.language)}>
              {valueError.value}
            </textarea>
          </label>
          {valueError.stored !== undefined ? (
            // Changed meanwhile, and not listed under these filters: the stored text here, and the
            // key on a page of its own to save again over it.
            <p class="hint stored">
              Stored now:{' '}
              {valueError.stored ? (
                <>
                  <q {...textAttrs(valueError.language)}>{valueError.stored.value}</q> ({valueError.stored.status})
                </>
              ) : (
                'no value'
              )}
              {' · '}
              <a href={`${base}?${new URLSearchParams([['q', valueError.keyName], ['lang', valueError.language]])}`}>Open {valueError.keyName} to save again</a>
            </p>
          ) : null}
        </div>
      ) : null}
      {translated ? <TranslateOutcome result={translated} /> : null}
      {translateError ? <TranslateError message={translateError} /> : null}

      {may(access.role, 'keys.manage') ? (
        <details class="card" open={formError?.form === 'new-key'}>
          <summary>New key</summary>
          <form method="post" action={`${base}/keys`} class="row wrap">
            <CsrfField csrf={csrf} />
            <input type="hidden" name="return_to" value={here} />
            {formLevelError(formError, 'new-key', ['key', 'group_name', 'description', 'tags', 'max_length'])}
            <label class="grow">
              Key name
              <input name="key" required maxlength={maxUnits(500)} placeholder="home.title" value={typed('new-key', 'key')} {...newKeyName.attrs} />
              {newKeyName.message}
            </label>
            <label>
              Group
              <input name="group_name" maxlength={maxUnits(200)} placeholder="Default" value={typed('new-key', 'group_name')} {...newKeyGroup.attrs} />
              {newKeyGroup.message}
            </label>
            <label class="grow">
              Description <span class="hint">(context for translators)</span>
              <input name="description" maxlength={maxUnits(1000)} value={typed('new-key', 'description')} {...newKeyDescription.attrs} />
              {newKeyDescription.message}
            </label>
            <label>
              Tags <span class="hint">(separated by commas)</span>
              <input name="tags" maxlength={maxUnits(2_100)} value={typed('new-key', 'tags')} {...newKeyTags.attrs} />
              {newKeyTags.message}
            </label>
            <LimitInput value={typed('new-key', 'max_length')} error={newKeyLimit} />
            <button type="submit">Create key</button>
          </form>
        </details>
      ) : null}

      {page.rows.length > 0 ? (
        <form
          method="post"
          action={`${base}/bulk`}
          id="bulk"
          class="row wrap bulk"
          data-confirm="Apply this to every selected key? (Deleted keys can be restored from the Trash tab.)"
        >
          <CsrfField csrf={csrf} />
          <input type="hidden" name="return_to" value={here} />
          {filters.languages.map((l) => (
            <input type="hidden" name="lang" value={l} />
          ))}
          <label>
            With the selected keys
            <select name="action" {...bulkAction.attrs}>
              {may(access.role, 'values.approve') ? (
                <option value="approved" selected={chosenAction === 'approved'}>
                  Approve values ({editable})
                </option>
              ) : null}
              <option value="review" selected={chosenAction === 'review'}>
                Send values to review ({editable})
              </option>
              <option value="draft" selected={chosenAction === 'draft'}>
                Set values back to draft ({editable})
              </option>
              {may(access.role, 'keys.manage') ? (
                <>
                  <option value="tag-add" selected={chosenAction === 'tag-add'}>
                    Add tag
                  </option>
                  <option value="tag-remove" selected={chosenAction === 'tag-remove'}>
                    Remove tag
                  </option>
                  <option value="delete" selected={chosenAction === 'delete'}>
                    Delete keys
                  </option>
                </>
              ) : null}
              {may(access.role, 'tasks.manage') ? (
                <option value="task" selected={chosenAction === 'task'}>
                  Create a task from the selected keys
                </option>
              ) : null}
            </select>
          </label>
          {may(access.role, 'keys.manage') ? (
            // Shown only with Add tag or Remove tag chosen (CSS :has, no script; without :has, always shown).
            <label class="bulk-tag">
              Tag <span class="hint">(to add or remove)</span>
              <input name="tag" maxlength={maxUnits(100)} value={typed('bulk', 'tag')} {...bulkTag.attrs} />
              {bulkTag.message}
            </label>
          ) : null}
          <button type="submit">Apply to selected</button>
          {bulkAction.message}
          {formLevelError(formError, 'bulk', ['action', 'tag'])}
        </form>
      ) : null}
      {page.scan ? (
        <p class="hint" role="status">
          {`Checked ${page.scan.scanned} keys for problems in ${filters.problems}.`}
          {page.scan.bounded ? ' The check stops there for one page: the next page continues it.' : ''}
        </p>
      ) : null}
      {page.rows.length === 0 ? (
        <p class="empty">
          {page.scan?.bounded ? 'No problem found in these keys; continue with the next page.' : filters.search || filters.group || filters.tag || filters.status || filters.missing || filters.outdated || filters.openComments || filters.problems || filters.task ? 'No key matches these filters.' : 'No keys yet.'}
        </p>
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
                    <input type="checkbox" name="key" value={row.id} form="bulk" aria-label={`Select ${row.key}`} checked={selected.includes(row.id)} />
                  </td>
                  <th scope="row" class="keycell">
                    <span class="mono keyname">{row.key}</span>
                    <span class="badge muted">{row.group_name}</span>
                    {row.tags.map((tag) => (
                      // Links keep the shown languages only: "the keys with this tag", as the filter shows them.
                      <>
                        {' '}
                        <a class="badge tag" href={`${base}?${editorQuery({ languages: filters.languages, tag })}`} aria-label={`Keys tagged ${tag}`}>
                          {tag}
                        </a>
                      </>
                    ))}
                    {row.description ? (
                      <p class="hint" id={`desc-${row.id}`}>
                        {row.description}
                      </p>
                    ) : null}
                    {row.max_length !== null ? <p class="hint">{`Limit: ${row.max_length} ${row.max_length === 1 ? 'character' : 'characters'}`}</p> : null}
                    {screenshots[row.id] ? (
                      <p class="hint">
                        <a href={`${base}/keys/${row.id}/values/${encodeURIComponent(screenshotsLanguage)}/history#screenshots`} aria-label={`${screenshotCount(screenshots[row.id]!)} of ${row.key}`}>
                          {screenshotCount(screenshots[row.id]!)}
                        </a>
                      </p>
                    ) : null}
                    {sourceShown ? null : <GlossaryHints id={`gl-${row.id}`} lines={hintsOf(row)} sourceLanguage={page.sourceLanguage} />}
                    {may(access.role, 'keys.manage') ? (
                      <details open={formError?.form === `key-${row.id}`}>
                        <summary class="hint">
                          Edit<span class="sr-only">{` ${row.key}`}</span>
                        </summary>
                        <form method="post" action={`${base}/keys/${row.id}`} class="stack">
                          <CsrfField csrf={csrf} />
                          <input type="hidden" name="return_to" value={here} />
                          {/* What the form shows as stored: only the fields changed from these are written, and only over them. */}
                          <input type="hidden" name="group_name_was" value={row.group_name} />
                          <input type="hidden" name="description_was" value={row.description ?? ''} />
                          <input type="hidden" name="tags_was" value={tagsText(row.tags)} />
                          <input type="hidden" name="max_length_was" value={limitText(row.max_length)} />
                          {formLevelError(formError, `key-${row.id}`, ['group_name', 'description', 'tags', 'max_length'])}
                          <label>
                            Group
                            <input
                              name="group_name"
                              value={typed(`key-${row.id}`, 'group_name') ?? row.group_name}
                              maxlength={maxUnits(200)}
                              required
                              {...fieldError(formError, `key-${row.id}`, 'group_name').attrs}
                            />
                            {fieldError(formError, `key-${row.id}`, 'group_name').message}
                          </label>
                          <label>
                            Description
                            <textarea name="description" rows={2} maxlength={maxUnits(1000)} {...fieldError(formError, `key-${row.id}`, 'description').attrs}>
                              {typed(`key-${row.id}`, 'description') ?? row.description ?? ''}
                            </textarea>
                            {fieldError(formError, `key-${row.id}`, 'description').message}
                          </label>
                          <label>
                            Tags <span class="hint">(separated by commas)</span>
                            <input
                              name="tags"
                              value={typed(`key-${row.id}`, 'tags') ?? tagsText(row.tags)}
                              maxlength={maxUnits(2_100)}
                              {...fieldError(formError, `key-${row.id}`, 'tags').attrs}
                            />
                            {fieldError(formError, `key-${row.id}`, 'tags').message}
                          </label>
                          <LimitInput value={typed(`key-${row.id}`, 'max_length') ?? limitText(row.max_length)} error={fieldError(formError, `key-${row.id}`, 'max_length')} />
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
                    const refused = valueError && valueError.keyId === row.id && valueError.language === l ? valueError : undefined;
                    // The version this form names: the one shown (If-Match), or "none" for a value that
                    // did not exist (create-only: a value someone else created meanwhile is not
                    // overwritten either). A form refused as invalid keeps the version it was sent
                    // with; one refused because the value changed names the stored one, shown below.
                    const shown = value ? String(value.version) : 'none';
                    const version = refused && !refused.changed ? refused.version : shown;
                    // The text the field shows, counted against the key's character limit (when it has one).
                    const text = refused ? refused.value : (value?.value ?? '');
                    const counter = row.max_length !== null ? counterText(text, row.max_length) : null;
                    return (
                      <td>
                        {/* The value as shown, for the bulk form: a status change applies to this version only. */}
                        <input type="hidden" name="shown" value={`${row.id}/${l}/${shown}`} form="bulk" />
                        <form method="post" action={`${base}/keys/${row.id}/values/${l}`} class="value" data-inline>
                          <CsrfField csrf={csrf} />
                          <input type="hidden" name="return_to" value={here} />
                          {version !== undefined ? <input type="hidden" name="version" value={version} /> : null}
                          {/* The source text this page shows: the text saved here is written against it, so a
                              source changed since the page was loaded leaves the saved value outdated. */}
                          {l === page.sourceLanguage ? null : <input type="hidden" name="source_rev" value={String(row.source_rev)} />}
                          <label for={id} class="sr-only">
                            {`${row.key} in ${l}`}
                          </label>
                          <textarea
                            id={id}
                            name="value"
                            rows={2}
                            maxlength={maxUnits(10000)}
                            readonly={!editable}
                            class={value || refused ? '' : 'missing'}
                            // Not only a colour: a missing value and a stored empty text differ for everyone.
                            placeholder={value ? undefined : 'No value yet'}
                            // The key's description is the translator's context: read with the field.
                            // The count against the key's character limit too: read with the field, never announced while typing.
                            aria-describedby={`${id}-msg ${id}-q${value?.outdated ? ` ${id}-outdated` : ''}${counter ? ` ${id}-len` : ''}${row.description ? ` desc-${row.id}` : ''}${l !== page.sourceLanguage && hintsOf(row).length ? ` gl-${row.id}` : ''}`}
                            {...(row.max_length !== null ? { 'data-max-length': String(row.max_length) } : {})}
                            {...(refused ? { 'aria-invalid': 'true', autofocus: true } : {})}
                            {...textAttrs(l)}
                          >
                            {text}
                          </textarea>
                          {counter ? (
                            <p id={`${id}-len`} class={counter.over ? 'hint counter over' : 'hint counter'}>
                              {counter.text}
                            </p>
                          ) : null}
                          <div class="row">
                            <label class="sr-only" for={`${id}-s`}>{`Status of ${row.key} in ${l}`}</label>
                            <select id={`${id}-s`} name="status" disabled={!editable} class={`status status-${value?.status ?? 'none'}`}>
                              {(editable ? statuses : TRANSLATION_STATUSES).map((s) => (
                                <option value={s} selected={s === (refused?.status ?? value?.status ?? 'draft')}>
                                  {s}
                                </option>
                              ))}
                            </select>
                            {editable ? (
                              <button
                                type="submit"
                                title="Save (Ctrl+Enter or Cmd+Enter in the text)"
                                aria-keyshortcuts="Control+Enter Meta+Enter"
                                aria-label={`Save ${row.key} in ${l}`}
                              >
                                Save
                              </button>
                            ) : (
                              <span class="hint">read only</span>
                            )}
                            {value ? (
                              <a href={`${base}/keys/${row.id}/values/${l}/history`} class="hint" aria-label={`History of ${row.key} in ${l}`}>
                                History
                              </a>
                            ) : editable && !row.comments[l] ? (
                              // No value yet, so no History: its page is still where a question about the source goes.
                              <a href={`${base}/keys/${row.id}/values/${l}/history#comments`} class="hint" aria-label={`Comment on ${row.key} in ${l}`}>
                                Comment
                              </a>
                            ) : null}
                            {/* The value's thread, on its History page: also before the first translation. */}
                            {row.comments[l] ? (
                              <a href={`${base}/keys/${row.id}/values/${l}/history#comments`} class="hint" aria-label={`${commentCount(row.comments[l], row.open_comments[l])} on ${row.key} in ${l}`}>
                                {commentCount(row.comments[l], row.open_comments[l])}
                              </a>
                            ) : null}
                            {editable && l !== page.sourceLanguage ? (
                              <a
                                href={`${base}/keys/${row.id}/suggestions/${l}`}
                                class="hint"
                                data-suggest={id}
                                aria-controls={`${id}-sugg`}
                                aria-expanded="false"
                                aria-label={`Suggestions for ${row.key} in ${l}`}
                              >
                                Suggestions
                              </a>
                            ) : null}
                            <output id={`${id}-msg`} class={refused ? 'saved error' : 'saved'} aria-live="polite">
                              {refused ? refused.message : ''}
                            </output>
                          </div>
                          {refused && (refused.changed || (value && value.value !== refused.value)) ? (
                            <p class="hint stored">
                              Stored now:{' '}
                              {value ? (
                                <>
                                  <q {...textAttrs(l)}>{value.value}</q> ({value.status})
                                </>
                              ) : (
                                'no value'
                              )}
                            </p>
                          ) : null}
                          {value?.outdated ? (
                            // Mark up to date submits this form's version and source_rev to its own
                            // address (formaction): neither a text nor a source changed since the page
                            // was loaded is confirmed unseen. No form of its own: forms do not nest, and
                            // a page of outdated values carried one CSRF token and return address each.
                            <div class="outdated row">
                              <span class="badge warn" id={`${id}-outdated`}>
                                Outdated: the source text changed after this translation
                              </span>
                              {editable ? (
                                <button type="submit" formaction={`${base}/keys/${row.id}/values/${l}/up-to-date`} class="link" aria-label={`Mark up to date: ${row.key} in ${l}`}>
                                  Mark up to date
                                </button>
                              ) : null}
                            </div>
                          ) : null}
                          <Warnings id={`${id}-q`} warnings={value?.warnings ?? []} />
                          <div id={`${id}-sugg`} class="suggestions" hidden></div>
                        </form>
                        {l === page.sourceLanguage ? <GlossaryHints id={`gl-${row.id}`} lines={hintsOf(row)} sourceLanguage={page.sourceLanguage} /> : null}
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
        {filters.cursor ? <a href={`${base}?${editorQuery(filters)}`}>First page</a> : null}
        {page.next ? (
          <a href={`${base}?${editorQuery(filters, page.next)}`} rel="next">
            Next page
          </a>
        ) : null}
      </nav>
    </Layout>
  );
};
