// The words a project's glossary forbids (docs/decisions.md, "Forbidden terms"): a forbidden term's
// spelling in the source language, and its translation in each language that has one. Found in a
// value as the glossary's terms are found in a source text (find-terms.ts: whole words, case folded
// unless the term is case-sensitive), in the value's words only: a placeholder, a tag or ICU syntax
// is no use of a word (`{login}` names an argument; `<a href="/login">` is markup).
import type { Sql, TransactionSql } from '../db/client.ts';
import { protect } from '../translate/protect.ts';
import { termFinder } from './find-terms.ts';

export type ForbiddenTerm = { term: string; case_sensitive: boolean; translations: Readonly<Record<string, string>> };

/** A forbidden word a value uses: the term it is (its spelling) and the word as the glossary writes it in the value's language. */
export type ForbiddenUse = { term: string; word: string };

/** The forbidden words a value of `language` uses, in the glossary's order. */
export type ForbiddenWords = (text: string, language: string) => ForbiddenUse[];

type Word = { term: string; case_sensitive: boolean; of: string };

/** The words of a value a translator wrote: placeholders, tags and ICU syntax left out (a space each). */
function wordsOf(text: string): string {
  return protect(text)
    .segments.map((s) => s.replace(/<x id="\d+"\/>/g, ' '))
    .join('\n');
}

/** A finder over a project's forbidden terms; undefined when it has none. One index per language, built when first asked. */
export function forbiddenWords(terms: readonly ForbiddenTerm[], sourceLanguage: string): ForbiddenWords | undefined {
  if (terms.length === 0) return undefined;
  const finders = new Map<string, (text: string) => Word[]>();
  return (text, language) => {
    let find = finders.get(language);
    if (find === undefined) {
      const words = terms.flatMap((t): Word[] => {
        const word = language === sourceLanguage ? t.term : t.translations[language];
        return word === undefined ? [] : [{ term: word, case_sensitive: t.case_sensitive, of: t.term }];
      });
      find = words.length === 0 ? () => [] : termFinder(words);
      finders.set(language, find);
    }
    if (text.trim() === '') return [];
    return find(wordsOf(text)).map((w) => ({ term: w.of, word: w.term }));
  };
}

/** The project's forbidden terms (an index probe: glossary_terms_forbidden_idx), as a finder; undefined when it has none. */
export async function readForbiddenWords(sql: Sql | TransactionSql, projectId: string, sourceLanguage: string): Promise<ForbiddenWords | undefined> {
  const rows = await sql<ForbiddenTerm[]>`
    select t.term, t.case_sensitive,
           coalesce((select jsonb_object_agg(x.language, x.text) from glossary_term_translations x where x.term_id = t.id), '{}'::jsonb) as translations
    from glossary_terms t where t.project_id = ${projectId} and t.forbidden
    order by t.term_folded collate "C"`;
  return forbiddenWords(rows, sourceLanguage);
}
