// Import and export: upload a file, see what it would change (a dry run), then apply it; or
// download any language in any format.
import type { FC } from 'hono/jsx';
import type { ImportResult } from '../../../core/files/schemas.ts';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { TRANSLATION_STATUSES } from '../../../core/translations/schemas.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { ProjectNav } from './project-nav.tsx';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

type Common = { user: SessionUser; csrf: string; access: ProjectAccess; cache: { last_rebuilt_at: string | null; ready: boolean } };
export type ImportChoice = { language: string; format: string; status: string; conflict: string; group: string };

const Counts: FC<{ r: ImportResult }> = ({ r }) => (
  <ul>
    <li>{count(r.keys_created, 'new key', 'new keys')}</li>
    <li>{count(r.values_created, 'new value', 'new values')}</li>
    <li>{count(r.values_updated, 'changed value', 'changed values')}</li>
    <li>{count(r.values_unchanged, 'unchanged value', 'unchanged values')}</li>
    <li>{r.translation_units} translation units</li>
    {r.warnings.map((w) => (
      <li class="hint">Warning: {w}</li>
    ))}
  </ul>
);

export const FilesPage: FC<
  Common & {
    languages: string[];
    formats: string[];
    /** The project's source language: XLIFF exports carry its text as each unit's source unless another is chosen. */
    sourceLanguage: string;
    preview?: { result: ImportResult; choice: ImportChoice; file: string } | undefined;
    applied?: ImportResult | undefined;
    error?: string | undefined;
  }
> = ({ user, csrf, access, cache, languages, formats, sourceLanguage, preview, applied, error }) => {
  const base = `${P}/projects/${access.projectId}`;
  const select = (name: string, label: string, options: readonly string[], chosen?: string) => (
    <label>
      {label}
      <select name={name}>
        {options.map((o) => (
          <option value={o} selected={o === chosen}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <Layout title={`${access.projectName}: import and export`} user={user} csrf={csrf}>
      <ProjectNav access={access} current="files" csrf={csrf} cache={cache} />
      {error ? <Notice kind="error">{error}</Notice> : null}
      {applied ? (
        <Notice kind="ok">
          Imported into {applied.language}:
          <Counts r={applied} />
        </Notice>
      ) : null}
      {languages.length === 0 ? <p class="empty">Add a language first.</p> : null}
      {preview ? (
        <form method="post" action={`${base}/import`} class="card stack">
          <h2>Preview: what this import would do in {preview.choice.language}</h2>
          <Counts r={preview.result} />
          <CsrfField csrf={csrf} />
          {Object.entries(preview.choice).map(([k, v]) => (
            <input type="hidden" name={k} value={v} />
          ))}
          <input type="hidden" name="file_base64" value={preview.file} />
          <input type="hidden" name="apply" value="yes" />
          <div class="row">
            <button type="submit">Apply this import</button>
            <a href={`${base}/files`}>Cancel</a>
          </div>
        </form>
      ) : null}
      <h2>Import a file</h2>
      <form method="post" action={`${base}/import`} enctype="multipart/form-data" class="card stack">
        <CsrfField csrf={csrf} />
        <label>
          File <span class="hint">(up to 10 MiB)</span>
          <input type="file" name="file" required />
        </label>
        <div class="row wrap">
          {select('language', 'Language', languages)}
          {select('format', 'Format', formats, 'json')}
          {select('status', 'Status of imported values', TRANSLATION_STATUSES, 'draft')}
          {select('conflict', 'Existing values', ['overwrite', 'keep', 'fail'], 'overwrite')}
          <label>
            Group for new keys
            <input name="group" value="Default" maxlength={200} />
          </label>
        </div>
        <button type="submit">Preview import</button>
      </form>
      <h2>Export a language</h2>
      <form method="get" action={`${base}/export`} class="card row wrap">
        {select('language', 'Language', languages)}
        {select('format', 'Format', formats, 'json')}
        {select('status', 'Values', ['approved', 'all', 'review', 'draft'], 'approved')}
        <label>
          Source language <span class="hint">(XLIFF only)</span>
          <select name="source">
            <option value="" selected>{`The project's (${sourceLanguage})`}</option>
            {languages.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        </label>
        <button type="submit">Download</button>
      </form>
    </Layout>
  );
};
