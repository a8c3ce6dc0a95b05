// The translator's assistants outside the editor's script: a value's translation memory
// suggestions as a page of their own (the editor's "Suggestions" link without script), and the
// pieces the editor shows: a suggestion's line, a value's quality warnings, the result of
// "Translate missing".
import type { FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import type { Suggestion, Suggestions } from '../../../core/memory/suggest-translations.ts';
import type { QualityWarning } from '../../../core/quality/check-translation.ts';
import type { TranslateResult } from '../../../core/translate/translate-missing.ts';
import { Layout, Notice, P } from './layout.tsx';
import { textAttrs } from '../../../core/languages/text-direction.ts';
import { ProjectNav } from './project-nav.tsx';

/** "92 %, from Web app / home.title, 2026-11-20": where a suggestion comes from, in words. */
export const suggestionOrigin = (s: Suggestion) =>
  `${Math.round(s.score * 100)} % ${s.match === 'exact' ? 'exact match' : 'similar'}, from ${s.origin.project_name} / ${s.origin.key}, ${s.origin.updated_at.slice(0, 10)}`;

export const SuggestionsPage: FC<{
  user: SessionUser;
  csrf: string;
  access: ProjectAccess;
  cache: { last_rebuilt_at: string | null; ready: boolean };
  keyName: string;
  suggestions: Suggestions;
}> = ({ user, csrf, access, cache, keyName, suggestions }) => (
  <Layout title={`${keyName} in ${suggestions.language}: suggestions`} user={user} csrf={csrf}>
    <ProjectNav access={access} current="editor" csrf={csrf} cache={cache} />
    <h2>
      Suggestions for <span class="mono">{keyName}</span> in {suggestions.language}
    </h2>
    {suggestions.source ? (
      <p>
        Source ({suggestions.source.language}): <q {...textAttrs(suggestions.source.language)}>{suggestions.source.value}</q>
      </p>
    ) : (
      <p class="empty">This key has no value in the source language: there is nothing to search the memory with.</p>
    )}
    {suggestions.source && suggestions.suggestions.length === 0 ? <p class="empty">No suggestion from the translation memory.</p> : null}
    <ol class="list">
      {suggestions.suggestions.map((s) => (
        <li>
          <strong {...textAttrs(suggestions.language)}>{s.value}</strong>
          <br />
          <span class="hint">{suggestionOrigin(s)}</span>
        </li>
      ))}
    </ol>
    <p>
      <a href={`${P}/projects/${access.projectId}`}>Back to the editor</a>
    </p>
  </Layout>
);

const CHECK_LABELS: Record<QualityWarning['check'], string> = {
  icu_syntax: 'ICU syntax',
  placeholders: 'Placeholders',
  plurals: 'Plurals',
  html_tags: 'Tags',
  whitespace: 'Whitespace',
  punctuation: 'Punctuation',
  length: 'Length',
  max_length: 'Character limit',
  glossary: 'Glossary',
  forbidden_terms: 'Forbidden term',
};
export const warningLine = (w: QualityWarning) => `${CHECK_LABELS[w.check]}: ${w.message}`;

/** A value's warnings: a marker with their count in words and each message (never colour alone). */
export const Warnings: FC<{ id: string; warnings: QualityWarning[] }> = ({ id, warnings }) => (
  <div id={id} class="quality">
    {warnings.length ? (
      <>
        <p class="warn-title">
          <span aria-hidden="true">⚠ </span>
          {warnings.length === 1 ? '1 quality warning' : `${warnings.length} quality warnings`}
        </p>
        <ul class="warnings">
          {warnings.map((w) => (
            <li>{warningLine(w)}</li>
          ))}
        </ul>
      </>
    ) : null}
  </div>
);

const REASONS: Record<TranslateResult['skipped'][number]['reason'], string> = {
  no_source: 'no value in the source language',
  machine_translation_off: 'machine translation is off',
  placeholders_lost: 'the translation lost a placeholder',
  broken_syntax: 'the translation broke the ICU syntax',
  changed_meanwhile: 'someone changed the value while it was being translated (theirs kept)',
};

export const TranslateOutcome: FC<{ result: TranslateResult }> = ({ result }) => (
  <div class="notice notice-ok" role="status" id="translate-result">
    <p>
      <strong>
        {result.translated === 1 ? '1 value' : `${result.translated} values`} translated into {result.language}
      </strong>{' '}
      as drafts: {result.from_memory} from translation memory (free), {result.from_provider} from {result.provider ?? 'machine translation'},{' '}
      {result.translation_units === 1 ? '1 translation unit' : `${result.translation_units} translation units`} charged.
    </p>
    {result.provider === null ? <p>Machine translation is off on this server: only the translation memory filled values.</p> : null}
    {result.remaining > 0 ? <p>{result.remaining} more missing values remain: run it again to continue.</p> : null}
    {result.skipped.length ? (
      <>
        <p>Skipped {result.skipped.length}:</p>
        <ul>
          {result.skipped.slice(0, 50).map((s) => (
            <li>
              <span class="mono">{s.key}</span>: {REASONS[s.reason]}
            </li>
          ))}
          {result.skipped.length > 50 ? <li>and {result.skipped.length - 50} more</li> : null}
        </ul>
      </>
    ) : null}
  </div>
);

export const TranslateError: FC<{ message: string }> = ({ message }) => <Notice kind="error">{message}</Notice>;
