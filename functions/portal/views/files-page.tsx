// Import and export: upload a file, see what it would change (a dry run, with the keys and values
// it would create or change), then apply it; or download any language in any format.
import type { Child, FC } from 'hono/jsx';
import type { ImportChanges, ImportPreview, ImportResult } from '../../../core/files/schemas.ts';
import { textAttrs } from '../../../core/languages/text-direction.ts';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { TRANSLATION_STATUSES } from '../../../core/translations/schemas.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { ProjectNav } from './project-nav.tsx';
import { warningLine } from './assistant-pages.tsx';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

type Common = { user: SessionUser; csrf: string; access: ProjectAccess; cache: { last_rebuilt_at: string | null; ready: boolean } };
/** tag: the tag every key of the file gets, as typed ('' for none). */
export type ImportChoice = { language: string; format: string; status: string; conflict: string; group: string; tag: string };
/** An import the use-case refused: the form's field it is about (the file, unless another), and why. */
export type ImportRefusal = { field: string; message: string };

/** What the import form shows before anything is chosen. */
const DEFAULT_CHOICE: Omit<ImportChoice, 'language'> = { format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default', tag: '' };

/** How many quality warnings the preview lists; the count has them all. */
const WARNINGS_LISTED = 20;

/**
 * The quality checks' warnings of the values the import would write (the dry run's
 * quality_warnings, as POST /v1/import?dry_run=true answers them): how many, then the first ones
 * with their key, check and message, so a broken plural is seen before Apply, not after.
 */
const QualityWarnings: FC<{ warnings: ImportResult['quality_warnings'] }> = ({ warnings }) => {
  if (warnings.count === 0) return null;
  const listed = warnings.values.slice(0, WARNINGS_LISTED);
  return (
    <div class="quality-warnings">
      <p class="warn-title">
        <span aria-hidden="true">{'\u26a0 '}</span>
        {count(warnings.count, 'quality warning', 'quality warnings')} in the values it would write
      </p>
      <ul class="warnings">
        {listed.map((w) => (
          <li>
            <span class="mono">{w.key}</span>: {warningLine(w)}
          </li>
        ))}
        {warnings.count > listed.length ? <li class="hint">and {warnings.count - listed.length} more</li> : null}
      </ul>
    </div>
  );
};

/**
 * An import's counts. tag: the tag it gives every key of the file, named beside the existing keys
 * that get it (created keys have it from the start: they are new keys); done: said of an applied import.
 */
const Counts: FC<{ r: ImportResult; tag?: string | undefined; done?: boolean }> = ({ r, tag, done }) => (
  <ul>
    <li>{count(r.keys_created, 'new key', 'new keys')}</li>
    <li>{count(r.values_created, 'new value', 'new values')}</li>
    <li>{count(r.values_updated, 'changed value', 'changed values')}</li>
    <li>{count(r.values_unchanged, 'unchanged value', 'unchanged values')}</li>
    {/* Said when there are any (most formats carry none); an answer kept from before the count has none. */}
    {r.descriptions_updated ? <li>{count(r.descriptions_updated, 'changed description', 'changed descriptions')}</li> : null}
    {/* Only with a tag; an answer kept from before tags has no count. */}
    {r.keys_tagged ? (
      <li>
        {count(r.keys_tagged, 'existing key', 'existing keys')} {done ? 'got' : r.keys_tagged === 1 ? 'gets' : 'get'} the tag{tag ? <> <span class="mono">{tag}</span></> : null}
      </li>
    ) : null}
    <li>{count(r.translation_units, 'translation unit', 'translation units')}</li>
    {r.warnings.map((w) => (
      <li class="hint">Warning: {w}</li>
    ))}
  </ul>
);

/** A status in its editor colour. */
const Status: FC<{ s: string }> = ({ s }) => <span class={`status-${s}`}>{s}</span>;

/** One kind of change: its items, then how many more the sample left out. */
const ChangeList: FC<{ title: string; total: number; items: Child[] }> = ({ title, total, items }) =>
  total === 0 ? null : (
    <>
      <h3>{title}</h3>
      <ul>
        {items.map((item) => (
          <li>{item}</li>
        ))}
        {total > items.length ? <li class="hint">and {total - items.length} more</li> : null}
      </ul>
    </>
  );

/**
 * What the preview's dry run found, under its counts: the new keys, the changed values (text and
 * status before and after), the new values, the keys whose description would change (before and
 * after), the existing keys that would get the import's tag, each list the first 100 (core's CHANGES_LISTED); a
 * warning when approved values would lose that status, and with conflict=keep, that existing
 * values stay. Texts are shown in the import language's direction.
 */
const Changes: FC<{ r: ImportResult; changes: ImportChanges; choice: ImportChoice }> = ({ r, changes, choice }) => {
  const dir = textAttrs(choice.language);
  const text = (value: string) => (
    <>
      "<span {...dir}>{value}</span>"
    </>
  );
  const key = (name: string) => <span class="mono">{name}</span>;
  return (
    <div class="changes">
      {changes.approved_demoted > 0 ? (
        <p class="warn-title">
          <span aria-hidden="true">{'\u26a0 '}</span>
          {count(changes.approved_demoted, 'approved value', 'approved values')} would become {choice.status}.
        </p>
      ) : null}
      {choice.conflict === 'keep' ? (
        <p>
          Existing values are kept:{' '}
          {changes.values_kept === 0
            ? 'none of them differs from the file.'
            : `${count(changes.values_kept, 'value', 'values')} of the file that differ from the stored ones would not be written.`}
        </p>
      ) : null}
      <ChangeList title="New keys" total={r.keys_created} items={changes.new_keys.map(key)} />
      <ChangeList
        title="Changed values"
        total={r.values_updated}
        items={changes.changed_values.map((c) => (
          <>
            {key(c.key)}: {c.before.value === c.after.value ? <>{text(c.after.value)} (text unchanged)</> : <>{text(c.before.value)} → {text(c.after.value)}</>}{' '}
            ({c.before.status === c.after.status ? <Status s={c.after.status} /> : <><Status s={c.before.status} /> → <Status s={c.after.status} /></>})
          </>
        ))}
      />
      <ChangeList
        title="New values"
        total={r.values_created}
        items={changes.new_values.map((n) => (
          <>
            {key(n.key)}: {text(n.value)}
          </>
        ))}
      />
      <ChangeList
        title="Changed descriptions"
        total={r.descriptions_updated}
        items={changes.changed_descriptions.map((d) => (
          <>
            {key(d.key)}: {d.before === null ? 'none' : `"${d.before}"`} → "{d.after}"
          </>
        ))}
      />
      <ChangeList title="Tagged keys" total={r.keys_tagged} items={changes.tagged_keys.map(key)} />
    </div>
  );
};

/**
 * An import's preview and its Apply form. submission: the form's one-time token (Back to this
 * preview and Apply again imports once); fingerprint: what the preview showed, so that Apply imports
 * only if its dry run still finds the same.
 */
export type ShownPreview = { result: ImportPreview; choice: ImportChoice; file: string; submission: string; fingerprint: string };

export const FilesPage: FC<
  Common & {
    languages: string[];
    formats: string[];
    /** The project's source language: XLIFF exports carry its text as each unit's source unless another is chosen. */
    sourceLanguage: string;
    /** The project's tags (core/keys/list-tags.ts), for the export's Tag select: none, no select. */
    tags: { name: string; keys: number }[];
    preview?: ShownPreview | undefined;
    applied?: ImportResult | undefined;
    /** The tag the applied import gave its keys (its counts name it). */
    appliedTag?: string | undefined;
    /** Said above the counts of an applied import (one sent again was not imported again), or above a preview shown again. */
    notice?: string | undefined;
    /** The import form's choices to show again (after a refusal, or with a preview). */
    choice?: ImportChoice | undefined;
    refusal?: ImportRefusal | undefined;
  }
> = ({ user, csrf, access, cache, languages, formats, sourceLanguage, tags, preview, applied, appliedTag, notice, choice, refusal }) => {
  const base = `${P}/projects/${access.projectId}`;
  const chosen = { ...DEFAULT_CHOICE, ...(choice ?? preview?.choice ?? {}) };
  // A refusal is said at the field it is about (aria-describedby, aria-invalid), as in the editor.
  const errorAt = (field: string): { attrs: Record<string, string>; message: Child } =>
    refusal?.field === field
      ? {
          attrs: { 'aria-invalid': 'true', 'aria-describedby': `import-${field}-error` },
          message: (
            <p id={`import-${field}-error`} class="field-error" role="alert">
              {refusal.message}
            </p>
          ),
        }
      : { attrs: {}, message: null };
  const select = (name: string, label: string, options: readonly string[], chosen?: string, at: { attrs: Record<string, string>; message: Child } = { attrs: {}, message: null }) => (
    <label>
      {label}
      <select name={name} {...at.attrs}>
        {options.map((o) => (
          <option value={o} selected={o === chosen}>
            {o}
          </option>
        ))}
      </select>
      {at.message}
    </label>
  );
  return (
    <Layout title={`${access.projectName}: import and export`} user={user} csrf={csrf}>
      <ProjectNav access={access} current="files" csrf={csrf} cache={cache} />
      {applied ? (
        <Notice kind="ok">
          {notice ? <p>{notice}</p> : null}
          Imported into {applied.language}:
          <Counts r={applied} tag={appliedTag} done />
        </Notice>
      ) : null}
      {languages.length === 0 ? <p class="empty">Add a language first.</p> : null}
      {preview ? (
        // multipart: URL-encoding would grow the file's base64 by a further 6% ('+' and '/'), past
        // the body limit for files near 10 MiB.
        <form method="post" action={`${base}/import`} enctype="multipart/form-data" class="card stack">
          <h2>Preview: what this import would do in {preview.choice.language}</h2>
          {notice && !applied ? <Notice kind="error">{notice}</Notice> : null}
          <Counts r={preview.result} tag={preview.choice.tag.trim()} />
          <QualityWarnings warnings={preview.result.quality_warnings} />
          <Changes r={preview.result} changes={preview.result.changes} choice={preview.choice} />
          <CsrfField csrf={csrf} />
          {Object.entries(preview.choice).map(([k, v]) => (
            <input type="hidden" name={k} value={v} />
          ))}
          <input type="hidden" name="file_base64" value={preview.file} />
          <input type="hidden" name="apply" value="yes" />
          <input type="hidden" name="submission" value={preview.submission} />
          <input type="hidden" name="preview" value={preview.fingerprint} />
          <div class="row">
            <button type="submit">Apply this import</button>
            <a href={`${base}/files`}>Cancel</a>
          </div>
        </form>
      ) : null}
      <h2>Import a file</h2>
      <form method="post" action={`${base}/import`} enctype="multipart/form-data" class="card stack">
        <CsrfField csrf={csrf} />
        {refusal ? (
          <p class="hint">
            Nothing was imported. The choices below are kept; attach the file again (a browser never keeps a chosen file).
          </p>
        ) : null}
        <label>
          File <span class="hint">(up to 10 MiB)</span>
          <input type="file" name="file" required {...errorAt('file').attrs} />
          {errorAt('file').message}
        </label>
        <div class="row wrap">
          {select('language', 'Language', languages, chosen.language, errorAt('language'))}
          {select('format', 'Format', formats, chosen.format, errorAt('format'))}
          {select('status', 'Status of imported values', TRANSLATION_STATUSES, chosen.status, errorAt('status'))}
          {select('conflict', 'Existing values', ['overwrite', 'keep', 'fail'], chosen.conflict, errorAt('conflict'))}
          <label>
            Group for new keys
            <input name="group" value={chosen.group} maxlength={maxUnits(200)} {...errorAt('group').attrs} />
            {errorAt('group').message}
          </label>
          {/* Blank: no tag. One tag (a comma is refused, not split: "every key" gets one tag, as the API's ?tag=). */}
          <label>
            Tag every key of the file <span class="hint">(optional: new keys and existing ones)</span>
            <input name="tag" value={chosen.tag} maxlength={maxUnits(100)} {...errorAt('tag').attrs} />
            {errorAt('tag').message}
          </label>
        </div>
        <button type="submit">Preview import</button>
      </form>
      <h2>Export a language</h2>
      <form method="get" action={`${base}/export`} class="card row wrap">
        {select('language', 'Language', languages)}
        {select('format', 'Format', formats, 'json')}
        {select('status', 'Values', ['approved', 'all', 'review', 'draft'], 'approved')}
        {/* Only in a project with tags, as the editor's Tag filter: "Every key" alone would be a choice of nothing. */}
        {tags.length > 0 ? (
          <label>
            Tag
            <select name="tag">
              <option value="" selected>
                Every key
              </option>
              {tags.map((t) => (
                <option value={t.name}>{`${t.name} (${t.keys})`}</option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          Source language <span class="hint">(XLIFF only)</span>
          <select name="source">
            <option value="" selected>{`The project's (${sourceLanguage})`}</option>
            {languages.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        </label>
        {/* A pseudo-language's file (core/files/pseudo-localize.ts), to test the app before anyone translates. */}
        <label>
          Pseudo-language <span class="hint">(optional: a code that is no language of the project, such as en-XA: every text accented, lengthened and bracketed; ar-XB: every word right-to-left)</span>
          <input name="pseudo" placeholder="en-XA" autocomplete="off" spellcheck={false} maxlength={8} />
        </label>
        <button type="submit">Download</button>
      </form>
    </Layout>
  );
};
