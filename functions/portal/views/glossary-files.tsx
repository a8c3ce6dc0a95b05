// The Glossary tab's files: download the glossary as CSV or TBX (every member), and import one
// (glossary.manage, a membership of every language) after a preview of what it would do, as the
// Files page imports a translation file: the preview's Apply sends the same bytes back, with a
// one-time token and what the preview showed.
import type { FC } from 'hono/jsx';
import type { GlossaryImportResult } from '../../../core/glossary/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { mayImportGlossary } from '../glossary-files.ts';
import { CsrfField, Notice, P } from './layout.tsx';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A preview to show, and its Apply form's fields: the file (base64: a browser never sends a chosen
 * file twice), the format it was read as, the one-time token, and what the preview showed.
 */
export type GlossaryFilePreview = {
  result: GlossaryImportResult;
  filename: string;
  format: string;
  file: string;
  submission: string;
  fingerprint: string;
  /** Said above it when it is shown instead of an import (the glossary changed since the first preview). */
  notice?: string | undefined;
};

/** A refused import: the field it is about (the file, or its format), and its problems, line by line. */
export type GlossaryFileRefusal = { field: 'file' | 'format'; lines: string[] };

/** The import form's choices and refusal, shown again. */
export type GlossaryFilesDraft = { format: string; refusal?: GlossaryFileRefusal | undefined };

/** "Would add 12 terms, change 3, 40 unchanged; 25 translations in de, fr." */
export function previewSentence(r: GlossaryImportResult): string {
  const translations = r.translations_written === 0 ? 'no translation to write' : `${count(r.translations_written, 'translation')}${r.languages.length ? ` in ${r.languages.join(', ')}` : ''}`;
  return `Would add ${count(r.terms_created, 'term')}, change ${r.terms_updated}, ${r.terms_unchanged} unchanged; ${translations}.`;
}

/** What an import did: "3 terms added, 1 changed, 40 unchanged; 25 translations written in de, fr". */
export function importCounts(r: GlossaryImportResult): string {
  const translations = r.translations_written === 0 ? 'no translation written' : `${count(r.translations_written, 'translation')} written${r.languages.length ? ` in ${r.languages.join(', ')}` : ''}`;
  return `${count(r.terms_created, 'term')} added, ${r.terms_updated} changed, ${r.terms_unchanged} unchanged; ${translations}`;
}

/** What an applied import did, for the notice after its redirect. */
export const importedSentence = (r: GlossaryImportResult) => `Imported the glossary file (${r.format}): ${importCounts(r)}.`;

const FORMAT_CHOICES = [
  { value: '', label: 'By the file name (.csv or .tbx)' },
  { value: 'csv', label: 'CSV (a spreadsheet)' },
  { value: 'tbx', label: 'TBX (a term base)' },
] as const;

/** The ids that tie a refused field to its problems (aria-describedby). */
const problemId = (field: string) => `glossary-import-${field}-error`;

/** A refused field's problems, beside it: one line, or a list of the file's lines. */
const Problems: FC<{ field: string; lines: string[] }> = ({ field, lines }) => (
  <div id={problemId(field)} class="field-error">
    {lines.length === 1 ? (
      <p>{lines[0]}</p>
    ) : (
      <>
        <p>{`Nothing was imported: the file has ${lines.length} problems.`}</p>
        <ul>
          {lines.map((line) => (
            <li>{line}</li>
          ))}
        </ul>
      </>
    )}
  </div>
);

/** Export for everyone; the import form for who may import (it opens when its sending was refused). */
export const GlossaryFiles: FC<{ access: ProjectAccess; csrf: string; draft?: GlossaryFilesDraft | undefined }> = ({ access, csrf, draft }) => {
  const base = `${P}/projects/${access.projectId}/glossary`;
  const refusal = draft?.refusal;
  const at = (field: 'file' | 'format') =>
    refusal?.field === field ? { 'aria-invalid': 'true', 'aria-describedby': `${problemId(field)} glossary-import-help`, autofocus: true } : { 'aria-describedby': 'glossary-import-help' };
  return (
    <>
      <p class="row wrap">
        <span>Glossary file:</span>
        <a href={`${base}/export?format=csv`} download="glossary.csv">
          Download CSV
        </a>
        <a href={`${base}/export?format=tbx`} download="glossary.tbx">
          Download TBX
        </a>
      </p>
      {mayImportGlossary(access) ? (
        <details class="card" open={refusal !== undefined}>
          <summary>Import a glossary file</summary>
          <form method="post" action={`${base}/import`} enctype="multipart/form-data" class="stack" aria-label="Import a glossary file">
            <CsrfField csrf={csrf} />
            <p class="hint" id="glossary-import-help">
              CSV: a header row with term, description, translatable, case_sensitive and a column per language (de, fr…); TBX: a term base of another tool. A term the
              glossary has (in any case) takes what the file gives; an empty cell changes nothing, and nothing is removed. You see what it would do before anything is
              written.
            </p>
            {refusal ? <p class="hint">Nothing was imported. Your choice of format is kept; attach the file again (a browser never keeps a chosen file).</p> : null}
            <label>
              File <span class="hint">(up to 10 MiB)</span>
              <input type="file" name="file" required {...at('file')} />
            </label>
            {refusal?.field === 'file' ? <Problems field="file" lines={refusal.lines} /> : null}
            <label>
              Format
              <select name="format" {...at('format')}>
                {FORMAT_CHOICES.map((o) => (
                  <option value={o.value} selected={o.value === (draft?.format ?? '')}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            {refusal?.field === 'format' ? <Problems field="format" lines={refusal.lines} /> : null}
            <div>
              <button type="submit">Preview import</button>
            </div>
          </form>
        </details>
      ) : null}
    </>
  );
};

/**
 * What the import would do, and its Apply form (multipart: URL-encoding would grow the file's base64
 * by a further 6%, past the body limit for files near 10 MiB). When it would change nothing there is
 * nothing to apply.
 */
export const GlossaryImportPreview: FC<{ access: ProjectAccess; csrf: string; preview: GlossaryFilePreview }> = ({ access, csrf, preview }) => {
  const base = `${P}/projects/${access.projectId}/glossary`;
  const r = preview.result;
  const changes = r.terms_created + r.terms_updated > 0;
  return (
    <section class="card stack" aria-labelledby="glossary-preview-title">
      <h3 id="glossary-preview-title">Preview: what importing {preview.filename || `this ${preview.format.toUpperCase()} file`} would do</h3>
      {preview.notice ? <Notice kind="error">{preview.notice}</Notice> : null}
      <p>{changes ? previewSentence(r) : `Nothing would change: the glossary already has the file's ${count(r.terms_unchanged, 'term')} as it says.`}</p>
      {r.warnings.length ? (
        <div>
          <p class="warn-title">
            <span aria-hidden="true">{'\u26a0 '}</span>
            {count(r.warnings.length, 'warning')}: skipped, not imported
          </p>
          <ul class="warnings">
            {r.warnings.map((w) => (
              <li>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {changes ? (
        <form method="post" action={`${base}/import`} enctype="multipart/form-data" aria-label="Apply this glossary import">
          <CsrfField csrf={csrf} />
          <input type="hidden" name="apply" value="yes" />
          <input type="hidden" name="format" value={preview.format} />
          <input type="hidden" name="filename" value={preview.filename} />
          <input type="hidden" name="file_base64" value={preview.file} />
          <input type="hidden" name="submission" value={preview.submission} />
          <input type="hidden" name="preview" value={preview.fingerprint} />
          <div class="row wrap">
            <button type="submit">Apply this import</button>
            <a href={base}>Cancel</a>
          </div>
        </form>
      ) : (
        <p>
          <a href={base}>Back to the glossary</a>
        </p>
      )}
    </section>
  );
};
