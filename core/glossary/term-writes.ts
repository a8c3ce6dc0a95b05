// What creating and changing a term share: the languages its translations may name (the project's,
// but not its source language, whose text is the term itself), and writing them.
import type { TransactionSql } from '../db/client.ts';
import { conflict, validationError } from '../errors.ts';
import { canonicalLanguageCode } from '../languages/language-code.ts';
import { fold } from './fold.ts';

/** The translations with canonical codes, each checked against the project's languages: 422 at the first code that does not fit. */
export async function checkedTranslations<T extends string | null>(sql: TransactionSql, projectId: string, given: Record<string, T>): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  if (Object.keys(given).length === 0) return out;
  const [project] = await sql<{ source_language: string; codes: string[] }[]>`
    select p.source_language, coalesce(array_agg(l.code) filter (where l.code is not null), '{}') as codes
    from projects p left join project_languages l on l.project_id = p.id
    where p.id = ${projectId} group by p.id`;
  const codes = new Set(project?.codes ?? []);
  for (const [raw, text] of Object.entries(given)) {
    const code = canonicalLanguageCode(raw)!;
    const refuse = (msg: string) => validationError([{ loc: ['body', 'translations', raw], msg, type: 'value_error' }]);
    if (out.has(code)) throw refuse(`names ${code} twice (codes are compared in any casing)`);
    // Removing a translation is always allowed: of a language the project no longer has (a no-op),
    // or of one that has become the source language since it was written.
    if (text === null) {
      out.set(code, text);
      continue;
    }
    if (code === project?.source_language) throw refuse(`${code} is the project's source language: the term itself is its text`);
    if (!codes.has(code)) throw refuse(`${code} is not one of the project's languages: add it first (POST /v1/languages)`);
    out.set(code, text);
  }
  return out;
}

/** Writes (or, for null, removes) a term's translations. */
export async function writeTranslations(sql: TransactionSql, projectId: string, termId: string, translations: Map<string, string | null>): Promise<void> {
  const set = [...translations].filter((e): e is [string, string] => e[1] !== null);
  const removed = [...translations].filter(([, text]) => text === null).map(([code]) => code);
  if (removed.length) await sql`delete from glossary_term_translations where term_id = ${termId} and language = any (${removed}::text[])`;
  if (set.length) {
    await sql`
      insert into glossary_term_translations (term_id, project_id, language, text, text_folded)
      select ${termId}, ${projectId}, l, t, f
      from unnest(${set.map(([code]) => code)}::text[], ${set.map(([, text]) => text)}::text[], ${set.map(([, text]) => fold(text))}::text[]) as x(l, t, f)
      on conflict (term_id, language) do update set text = excluded.text, text_folded = excluded.text_folded`;
  }
}

/** A spelling the glossary already has (compared case folded): a 409, as a key name already taken. */
export const termTaken = (term: string) => conflict(`The glossary already has the term '${term}' (spellings are compared in any case)`);

/** The unique index on the folded spelling, hit by a write that raced another. */
export const isTermTaken = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === '23505' && /glossary_terms_folded_idx/.test(String((error as { constraint_name?: unknown }).constraint_name ?? (error as Error).message));
