// Translation memory suggestions (issue 17): for a key and a target language, what the team already
// translated from the same or a similar source text, anywhere in the account. Exact matches first
// (score 1), then fuzzy ones by trigram similarity (pg_trgm), each with where it came from.
// Only approved translations are memory; the key's own value is never suggested to itself.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { InProject } from '../commands.ts';
import { notFound } from '../errors.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { languageNotRegistered } from '../languages/remove-language.ts';
import { useCase } from '../use-case.ts';
import { keyById } from '../keys/by-id.ts';
import { Uuid } from '../validation.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { sizeClassFor } from './size-classes.ts';

/** Below this similarity a match is noise for a translator (pg_trgm's own default is 0.3). */
export const FUZZY_THRESHOLD = 0.5;
export const MAX_SUGGESTIONS = 10;

export const SuggestCommand = v.object({
  ...InProject,
  keyId: Uuid,
  language: LanguageCode,
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_SUGGESTIONS)), 5),
});

export const Suggestion = v.object({
  value: v.string(),
  /** 1 for an exact match of the source text; otherwise the trigram similarity, 0.5 to 1. */
  score: v.number(),
  match: v.picklist(['exact', 'fuzzy']),
  /** The source text the suggestion translates (equal to the key's for an exact match). */
  source_value: v.string(),
  origin: v.object({ project_id: Uuid, project_name: v.string(), key_id: Uuid, key: v.string(), group_name: v.string(), updated_at: v.string() }),
});
export type Suggestion = v.InferOutput<typeof Suggestion>;

export const Suggestions = v.object({
  key_id: Uuid,
  language: v.string(),
  /** The key's value in the project's source language, which the memory is searched with; null when it has none. */
  source: v.nullable(v.object({ language: v.string(), value: v.string() })),
  suggestions: v.array(Suggestion),
});
export type Suggestions = v.InferOutput<typeof Suggestions>;

type Row = {
  value: string;
  exact: boolean;
  score: number;
  source_value: string;
  project_id: string;
  project_name: string;
  key_id: string;
  key: string;
  group_name: string;
  updated_at: string;
};

export const suggestTranslations = useCase(SuggestCommand, async (deps: Pick<Deps, 'sql'>, input): Promise<Suggestions> => {
  // The source's trigram count comes from pg_trgm itself, which decides what a trigram is.
  const [key] = await deps.sql<{ account_id: string; source_language: string; registered: boolean; source: string | null; source_trigrams: number }[]>`
    select x.*, coalesce(array_length(show_trgm(x.source), 1), 0)::int as source_trigrams from (
      select p.account_id, p.source_language,
        exists (select 1 from project_languages l where l.project_id = p.id and l.code = ${input.language}) as registered,
        (select t.value from translations t where t.key_id = k.id and t.language = p.source_language) as source
      from ${keyById(deps.sql, input.keyId)} k join projects p on p.id = k.project_id
      where k.project_id = ${input.projectId} and k.deleted_at is null) x`;
  if (!key) throw notFound('Key not found');
  if (!key.registered) throw languageNotRegistered(input.language);
  const base = { key_id: input.keyId, language: input.language };
  if (key.source === null || key.source.trim() === '' || input.language === key.source_language) {
    return { ...base, source: key.source === null ? null : { language: key.source_language, value: key.source }, suggestions: [] };
  }
  // Exact matches are found apart from the fuzzy ones, through the (md5, account) index of
  // migration 019 as machine translation finds them (core/translate/translate-missing.ts): pg_trgm
  // gives a text without letters or digits ("…", "😀", "→") no trigrams, so `%` never finds it, not
  // even itself. The md5 finds the candidates, the text itself (byte for byte) decides the match.
  // `%` finds the fuzzy candidates through the trigram index at pg_trgm.similarity_threshold. At its
  // default (0.3) a short UI text shares trigrams with thousands of rows, each then rechecked on the
  // heap; set to FUZZY_THRESHOLD for this transaction only (a pooled connection keeps nothing), the
  // index itself discards them: about 5 times faster over 100,000 sources (docs/decisions.md).
  // Sources too long to reach the threshold are left out in the index (migration 020). A source with
  // no trigrams has no fuzzy match (similarity 0 with everything), and pg_trgm would answer its empty
  // query by reading the whole index: that search is left out.
  const sizeClass = sizeClassFor(key.source_trigrams, FUZZY_THRESHOLD);
  const rows = await deps.sql.begin(async (tx) => {
    await tx`select set_config('pg_trgm.similarity_threshold', ${String(FUZZY_THRESHOLD)}, true)`;
    // The candidates first, scanned once (materialized): joined in one statement, a planner with
    // stale statistics on projects (one row when it last looked) put projects in the outer loop and
    // ran the trigram scan once per project of the account, a second and more for a common text.
    // Exact matches rank first whatever their score: pg_trgm ignores case, so "SAVE" is a fuzzy
    // match of "Save" with similarity 1, and a newer one would otherwise come before the exact one.
    // The same translation reached from several keys is one suggestion (its best origin), chosen
    // before the limit: a translation shared by many keys must not push a distinct one out.
    return tx<Row[]>`
      with candidates as materialized (
        select m.key_id, m.project_id, m.value, true as exact, 1::real as score
        from memory_sources m
        where md5(m.value)::uuid = md5(${key.source})::uuid and m.account_id = ${key.account_id}
          and m.value = ${key.source} and m.key_id <> ${input.keyId}
        ${
          key.source_trigrams === 0
            ? tx``
            : tx`union all
        select m.key_id, m.project_id, m.value, false, similarity(m.value, ${key.source})
        from memory_sources m
        where m.account_id = ${key.account_id} and m.key_id <> ${input.keyId} and m.value % ${key.source}
          and m.value <> ${key.source}
          ${sizeClass === undefined ? tx`` : tx`and m.size_classes @> array[${sizeClass}::int]`}`
        }
      ), best as (
        select distinct on (t.value) t.value, c.exact, c.score, c.value as source_value, p.id as project_id, p.name as project_name,
          k.id as key_id, k.key, k.group_name, t.updated_at
        from candidates c
        join projects p on p.id = c.project_id and p.source_language = ${key.source_language}
        join translation_keys k on k.id = c.key_id and k.deleted_at is null
        join translations t on t.key_id = c.key_id and t.language = ${input.language} and t.status = 'approved'
        order by t.value, c.exact desc, c.score desc, t.updated_at desc, k.id
      )
      select b.value, b.exact, b.score, b.source_value, b.project_id, b.project_name, b.key_id, b.key, b.group_name,
        ${isoUtc(tx, 'b.updated_at')} as updated_at
      from best b
      order by b.exact desc, b.score desc, b.updated_at desc, b.key_id
      limit ${input.limit}`;
  });
  const suggestions: Suggestion[] = rows.map((r) => ({
    value: r.value,
    score: Math.round(Number(r.score) * 1000) / 1000,
    match: r.exact ? 'exact' : 'fuzzy',
    source_value: r.source_value,
    origin: { project_id: r.project_id, project_name: r.project_name, key_id: r.key_id, key: r.key, group_name: r.group_name, updated_at: r.updated_at },
  }));
  return { ...base, source: { language: key.source_language, value: key.source }, suggestions };
});
