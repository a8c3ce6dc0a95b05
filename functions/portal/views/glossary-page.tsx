// A project's Glossary tab (core/glossary): the agreed terms of the product and how each is said in
// the project's languages, one column per language but the source (whose text is the term itself).
// Everyone who sees the project sees it; members with glossary.manage (owners, developers,
// reviewers) add, edit and delete terms. A translator's or reviewer's membership limited to some
// languages edits only those languages' translations (the others are read-only in the forms, and a
// change to one is refused with 403), as in the editor. A refused form comes back with what was typed
// and the message at the field it is about (aria-invalid, aria-describedby), as the editor's do. A
// forbidden term (a word the product must not use) is said in words: a badge on its row, "(do not
// use)" beside its translations, and "forbidden: do not use" in the editor's hints. One also kept as
// written (a competitor's name) is the word not to use in every language: "as written (do not use)"
// in each language's column, "forbidden in every language, do not use" in the hints.
import type { FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import type { GlossaryTerm } from '../../../core/glossary/schemas.ts';
import { TERM_DESCRIPTION_MAX_CHARS, TERM_MAX_CHARS } from '../../../core/glossary/schemas.ts';
import { may, mayEditLanguage } from '../../../core/users/permissions.ts';
import { textAttrs } from '../../../core/languages/text-direction.ts';
import { languageName } from '../../../core/languages/language-code.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { clip } from '../../../core/formats/text/clip.ts';
import { FieldProblem, problemAttrs, type FieldProblems } from './field-problems.tsx';
import { ProjectNav } from './project-nav.tsx';
import { GlossaryFiles, GlossaryImportPreview, type GlossaryFilePreview, type GlossaryFilesDraft } from './glossary-files.tsx';

/** Terms a page of the tab lists (the core's `limit`; "Next page" leads on by its cursor). */
export const GLOSSARY_PAGE = 100;

/** The form field of a language's translation. */
export const translationField = (code: string) => `translation_${code}`;

/**
 * A refused form, shown again: which form ('new', or the term's id), what it sent (kept in its
 * fields), the problems by field, and what is about no field it shows (nothing to save, a language
 * removed since the page was loaded).
 */
export type GlossaryDraft = { form: string; values: Record<string, string>; problems: FieldProblems; message?: string | undefined };

type Props = {
  user: SessionUser;
  csrf: string;
  access: ProjectAccess;
  cache: { last_rebuilt_at: string | null; ready: boolean; pending?: boolean };
  notice?: string | undefined;
  error?: string | undefined;
  terms: GlossaryTerm[];
  /** Terms matching the search in the whole glossary (every page). */
  count: number;
  /** The next page's cursor, or null on the last page. */
  next: string | null;
  q?: string | undefined;
  cursor?: string | undefined;
  /** The languages terms are translated into: the project's, but its source language. */
  languages: string[];
  sourceLanguage: string;
  /** The Add form's one-time token (a double click adds once). */
  submission: string;
  draft?: GlossaryDraft | undefined;
  /** The search refused (too long, a NUL): said at its field. */
  searchProblem?: string | undefined;
  /** A glossary file's import preview, shown first with its Apply form. */
  filePreview?: GlossaryFilePreview | undefined;
  /** The import form's choice and refusal, shown again. */
  filesDraft?: GlossaryFilesDraft | undefined;
};

/** The address of a page of the tab: its search and cursor. */
export function glossaryPath(projectId: string, q?: string, cursor?: string): string {
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (cursor) query.set('cursor', cursor);
  const s = query.toString();
  return `${P}/projects/${projectId}/glossary${s ? `?${s}` : ''}`;
}

const formId = (form: string) => `term-${form}`;

/** The field names the forms show (a problem of another field is said at the top of its form). */
const shownFields = (languages: string[]) => ['term', 'description', 'case_sensitive', 'do_not_translate', 'forbidden', ...languages.map(translationField)];

/** Problems about no field of the form, and the draft's own message: said at the form's top. */
const FormLevel: FC<{ draft: GlossaryDraft | undefined; form: string; languages: string[] }> = ({ draft, form, languages }) => {
  if (!draft || draft.form !== form) return null;
  const shown = new Set(shownFields(languages));
  const others = Object.entries(draft.problems)
    .filter(([field]) => !shown.has(field))
    .map(([field, msg]) => (field.startsWith('translation_') ? `${field.slice('translation_'.length)}: ${msg}` : msg));
  const lines = [...(draft.message ? [draft.message] : []), ...others];
  return lines.length ? (
    <p class="field-error" role="alert">
      {lines.join(' ')}
    </p>
  ) : null;
};

/**
 * The fields of a term, for the Add form and each Edit form: `values` is what the field shows (the
 * stored term, or what a refused form sent).
 */
const TermFields: FC<{
  form: string;
  values: { term: string; description: string; caseSensitive: boolean; doNotTranslate: boolean; forbidden: boolean; translations: Record<string, string> };
  problems: FieldProblems | undefined;
  access: ProjectAccess;
  languages: string[];
  sourceLanguage: string;
}> = ({ form, values, problems, access, languages, sourceLanguage }) => {
  const id = formId(form);
  return (
    <>
      <label>
        Term <span class="hint">{`(as written in ${sourceLanguage}; up to ${TERM_MAX_CHARS} characters)`}</span>
        <input name="term" required maxlength={maxUnits(TERM_MAX_CHARS)} value={values.term} {...textAttrs(sourceLanguage)} {...problemAttrs(problems, id, 'term')} />
      </label>
      <FieldProblem problems={problems} form={id} name="term" />
      <label>
        Description <span class="hint">(optional: what it means, where it is used)</span>
        <textarea name="description" rows={2} maxlength={maxUnits(TERM_DESCRIPTION_MAX_CHARS)} {...problemAttrs(problems, id, 'description')}>
          {values.description}
        </textarea>
      </label>
      <FieldProblem problems={problems} form={id} name="description" />
      <label>
        <input type="checkbox" name="case_sensitive" value="yes" checked={values.caseSensitive} {...problemAttrs(problems, id, 'case_sensitive')} /> Case-sensitive{' '}
        <span class="hint">(found only as written: “Apple” the brand, not “apple”)</span>
      </label>
      <FieldProblem problems={problems} form={id} name="case_sensitive" />
      <label>
        <input type="checkbox" name="do_not_translate" value="yes" checked={values.doNotTranslate} {...problemAttrs(problems, id, 'do_not_translate')} /> Do not translate{' '}
        <span class="hint">(kept as written in every language: a brand, a product name)</span>
      </label>
      <FieldProblem problems={problems} form={id} name="do_not_translate" />
      <label>
        <input type="checkbox" name="forbidden" value="yes" checked={values.forbidden} {...problemAttrs(problems, id, 'forbidden')} /> Forbidden (a word not to use){' '}
        {/* No "term" in the hint: the term field is the one labelled so. */}
        <span class="hint">{`(not to appear: this word in ${sourceLanguage} texts, its translations below in theirs; with Do not translate, this word in every language)`}</span>
      </label>
      <FieldProblem problems={problems} form={id} name="forbidden" />
      {languages.length ? (
        <fieldset class="stack">
          <legend>Translations <span class="hint">(optional; empty: none)</span></legend>
          {languages.map((l) => {
            const name = translationField(l);
            const editable = mayEditLanguage(access, l);
            return (
              <>
                <label>
                  {`${l} (${languageName(l)})`}
                  {editable ? null : <span class="hint"> read only: not one of your languages</span>}
                  <input name={name} maxlength={maxUnits(TERM_MAX_CHARS)} value={values.translations[l] ?? ''} readonly={!editable} {...textAttrs(l)} {...problemAttrs(problems, id, name)} />
                </label>
                <FieldProblem problems={problems} form={id} name={name} />
              </>
            );
          })}
        </fieldset>
      ) : null}
    </>
  );
};

/** What a refused form sent, as its fields show it. */
function typedValues(values: Record<string, string>, languages: string[]) {
  return {
    term: values.term ?? '',
    description: values.description ?? '',
    caseSensitive: values.case_sensitive === 'yes',
    doNotTranslate: values.do_not_translate === 'yes',
    forbidden: values.forbidden === 'yes',
    translations: Object.fromEntries(languages.map((l) => [l, values[translationField(l)] ?? ''])),
  };
}

/** A term's flags, as words (never colour alone). */
const Badges: FC<{ term: GlossaryTerm }> = ({ term }) => (
  <>
    {term.case_sensitive ? (
      <>
        {' '}
        <span class="badge muted">case-sensitive</span>
      </>
    ) : null}
    {term.translatable ? null : (
      <>
        {' '}
        <span class="badge warn">do not translate</span>
      </>
    )}
    {term.forbidden ? (
      <>
        {' '}
        <span class="badge warn">Forbidden: do not use</span>
      </>
    ) : null}
  </>
);

/** No translation: a muted dash, said as words. */
const None: FC<{ label: string }> = ({ label }) => (
  <span class="hint">
    <span aria-hidden="true">—</span>
    <span class="sr-only">{label}</span>
  </span>
);

export const GlossaryPage: FC<Props> = (props) => {
  const { user, csrf, access, cache, notice, error, terms, count, next, q, cursor, languages, sourceLanguage, submission, draft, searchProblem, filePreview, filesDraft } = props;
  const base = `${P}/projects/${access.projectId}`;
  const here = glossaryPath(access.projectId, q, cursor);
  const manage = may(access.role, 'glossary.manage');
  const newDraft = draft?.form === 'new' ? draft : undefined;
  return (
    <Layout title={`${access.projectName}: glossary`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="glossary" csrf={csrf} cache={cache} here={here} />
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <h2>Glossary</h2>
      <p class="hint">
        The project's agreed terms: how a feature, a brand or a word is said in each language, and the words not to use (forbidden terms). The editor shows the terms a key's source text holds beside it.
      </p>
      {filePreview ? <GlossaryImportPreview access={access} csrf={csrf} preview={filePreview} /> : null}

      {manage ? (
        <details class="card" open={newDraft !== undefined}>
          <summary>Add a term</summary>
          <form method="post" action={`${base}/glossary`} class="stack" aria-label="Add a term">
            <CsrfField csrf={csrf} />
            <input type="hidden" name="submission" value={submission} />
            <input type="hidden" name="return_to" value={here} />
            <FormLevel draft={draft} form="new" languages={languages} />
            <TermFields
              form="new"
              values={newDraft ? typedValues(newDraft.values, languages) : { term: '', description: '', caseSensitive: false, doNotTranslate: false, forbidden: false, translations: {} }}
              problems={newDraft?.problems}
              access={access}
              languages={languages}
              sourceLanguage={sourceLanguage}
            />
            <div>
              <button type="submit">Add term</button>
            </div>
          </form>
        </details>
      ) : null}
      <GlossaryFiles access={access} csrf={csrf} draft={filesDraft} />

      <form method="get" action={`${base}/glossary`} class="filters" role="search" aria-label="Search the glossary">
        <label class="grow">
          Search terms and translations
          <input type="search" name="q" value={q ?? ''} maxlength={maxUnits(TERM_MAX_CHARS)} {...(searchProblem ? { 'aria-invalid': 'true', 'aria-describedby': 'problem-glossary-search-q' } : {})} />
        </label>
        <button type="submit">Search</button>
        {searchProblem ? (
          <p class="field-error" id="problem-glossary-search-q">
            {searchProblem}
          </p>
        ) : null}
      </form>

      <p class="hint" role="status">
        {q ? `${count} ${count === 1 ? 'term matches' : 'terms match'} “${q}”` : `${count} ${count === 1 ? 'term' : 'terms'}`}
        {q ? (
          <>
            {' · '}
            <a href={`${base}/glossary`}>Show every term</a>
          </>
        ) : null}
      </p>

      {terms.length === 0 ? (
        <p class="empty">{q ? 'No term matches this search.' : cursor ? 'No more terms.' : manage ? 'No terms yet: add the first one above.' : 'No terms yet.'}</p>
      ) : (
        <div class="table-scroll">
          <table class="table">
            <caption class="sr-only">Glossary of {access.projectName}</caption>
            <thead>
              <tr>
                <th scope="col">Term</th>
                <th scope="col">Description</th>
                {languages.map((l) => (
                  <th scope="col">{l}</th>
                ))}
                {manage ? (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {terms.map((term) => {
                const form = term.id;
                const own = draft?.form === form ? draft : undefined;
                // The values the form was loaded with: only the fields changed from these are written.
                const was = (name: string, stored: string) => (own && own.values[`${name}_was`] !== undefined ? own.values[`${name}_was`]! : stored);
                return (
                  <tr data-term={term.id}>
                    <th scope="row">
                      <span {...textAttrs(sourceLanguage)}>{term.term}</span>
                      <Badges term={term} />
                    </th>
                    <td>{term.description ? term.description : <None label="no description" />}</td>
                    {languages.map((l) => (
                      <td>
                        {term.forbidden && !term.translatable ? (
                          // Kept as written and forbidden: the word not to use here is the term itself.
                          <span class="hint">as written (do not use)</span>
                        ) : term.translations[l] !== undefined ? (
                          term.forbidden ? (
                            // A forbidden term's translation is the word not to use in that language.
                            <>
                              <span {...textAttrs(l)}>{term.translations[l]}</span> <span class="hint">(do not use)</span>
                            </>
                          ) : (
                            <span {...textAttrs(l)}>{term.translations[l]}</span>
                          )
                        ) : term.translatable ? (
                          <None label="no translation" />
                        ) : (
                          <span class="hint">as written</span>
                        )}
                      </td>
                    ))}
                    {manage ? (
                      <td>
                        <details open={own !== undefined}>
                          <summary class="hint">
                            Edit<span class="sr-only">{` the term ${term.term}`}</span>
                          </summary>
                          <form method="post" action={`${base}/glossary/${term.id}`} class="stack" aria-label={`Edit the term ${term.term}`}>
                            <CsrfField csrf={csrf} />
                            <input type="hidden" name="return_to" value={here} />
                            {/* What the form shows as stored: only the fields changed from these are sent. */}
                            <input type="hidden" name="term_was" value={was('term', term.term)} />
                            <input type="hidden" name="description_was" value={was('description', term.description)} />
                            <input type="hidden" name="case_sensitive_was" value={was('case_sensitive', term.case_sensitive ? 'yes' : 'no')} />
                            <input type="hidden" name="do_not_translate_was" value={was('do_not_translate', term.translatable ? 'no' : 'yes')} />
                            <input type="hidden" name="forbidden_was" value={was('forbidden', term.forbidden ? 'yes' : 'no')} />
                            {languages.map((l) => (
                              <input type="hidden" name={`${translationField(l)}_was`} value={was(translationField(l), term.translations[l] ?? '')} />
                            ))}
                            <FormLevel draft={draft} form={form} languages={languages} />
                            <TermFields
                              form={form}
                              values={
                                own
                                  ? typedValues(own.values, languages)
                                  : { term: term.term, description: term.description, caseSensitive: term.case_sensitive, doNotTranslate: !term.translatable, forbidden: term.forbidden, translations: term.translations }
                              }
                              problems={own?.problems}
                              access={access}
                              languages={languages}
                              sourceLanguage={sourceLanguage}
                            />
                            <div>
                              <button type="submit" class="secondary" aria-label={`Save term ${term.term}`}>
                                Save term
                              </button>
                            </div>
                          </form>
                        </details>
                        <form method="post" action={`${base}/glossary/${term.id}/delete`} data-confirm={`Delete the glossary term ${term.term} and its translations? This cannot be undone.`}>
                          <CsrfField csrf={csrf} />
                          <input type="hidden" name="return_to" value={here} />
                          <button type="submit" class="link danger" aria-label={`Delete the term ${term.term}`}>
                            Delete
                          </button>
                        </form>
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages">
        {cursor ? <a href={glossaryPath(access.projectId, q)}>First page</a> : null}
        {next ? (
          <a href={glossaryPath(access.projectId, q, next)} rel="next">
            Next page
          </a>
        ) : null}
      </nav>
    </Layout>
  );
};

/** A description short enough to show in full beside a hint; a longer one is cut there and shown whole as the line's title. */
const HINT_DESCRIPTION_CHARS = 80;

type HintLine = { term: GlossaryTerm; said: string[] };

/**
 * The editor's hint lines for a key's terms: each term with its translations in the shown languages
 * (a term with none there is left out), each term not to translate, and each forbidden term (with
 * its translations in the shown languages, the words not to use there; shown even with none: the
 * source itself uses it; one kept as written is the word not to use in every language, so without
 * translations). Empty: no hint.
 */
export function glossaryHintLines(terms: readonly GlossaryTerm[], languages: readonly string[]): HintLine[] {
  return terms.flatMap((term) => {
    const said = languages.filter((l) => term.translations[l] !== undefined);
    if (term.forbidden) return [{ term, said: term.translatable ? said : [] }];
    if (!term.translatable) return [{ term, said: [] }];
    return said.length ? [{ term, said }] : [];
  });
}

/**
 * Under a key's source text in the editor: "Glossary: Dashboard → Übersicht (de)", "Acme: do not
 * translate", "Login: forbidden, do not use; de: Einloggen (do not use)", "Crowdin: forbidden in every
 * language, do not use" (a forbidden term kept as written), one line a term, with a
 * short description beside it. `id`: the value fields of the row are described by it (read with the
 * field being translated).
 */
export const GlossaryHints: FC<{ id: string; lines: HintLine[]; sourceLanguage: string }> = ({ id, lines, sourceLanguage }) =>
  lines.length === 0 ? null : (
    <div class="hint changes" id={id}>
      <strong id={`${id}-label`}>Glossary</strong>
      <ul aria-labelledby={`${id}-label`}>
        {lines.map(({ term, said }) => {
          const description = term.description ? clip(term.description.replace(/\s+/g, ' '), HINT_DESCRIPTION_CHARS) : '';
          return (
            <li {...(description !== term.description && term.description ? { title: term.description } : {})}>
              <strong {...textAttrs(sourceLanguage)}>{term.term}</strong>
              {term.forbidden && !term.translatable ? (
                // Kept as written: the term itself is the word not to use, in the source and every language.
                ': forbidden in every language, do not use'
              ) : term.forbidden ? (
                // A word not to use, in the source and (its translations) in each shown language: never an agreed word.
                <>
                  {': forbidden, do not use'}
                  {said.map((l) => (
                    <>
                      {`; ${l}: `}
                      <span {...textAttrs(l)}>{term.translations[l]}</span> (do not use)
                    </>
                  ))}
                </>
              ) : term.translatable ? (
                said.map((l, i) => (
                  <>
                    {i === 0 ? ' → ' : ', '}
                    <span {...textAttrs(l)}>{term.translations[l]}</span> ({l})
                  </>
                ))
              ) : (
                ': do not translate'
              )}
              {description ? ` — ${description}` : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
