// The words a project's glossary forbids (docs/decisions.md, "Forbidden terms"): a forbidden term's
// spelling in the source language, and its translation in each language that has one; a forbidden
// term kept as written (a competitor's name), its spelling in every language. Found in a value as the
// glossary's terms are found in a source text (find-terms.ts: whole words, case folded unless the
// term is case-sensitive), in the value's words only: a placeholder, a tag, ICU syntax, an address
// or an e-mail address is no use of a word (`{login}` names an argument; `/login` is a path).
import type { Sql, TransactionSql } from '../db/client.ts';
import { protect } from '../translate/protect.ts';
import { fold } from './fold.ts';
import { termFinder } from './find-terms.ts';

export type ForbiddenTerm = { term: string; case_sensitive: boolean; translatable: boolean; translations: Readonly<Record<string, string>> };

/** A forbidden word a value uses: the term it is (its spelling) and the word as the glossary writes it in the value's language. */
export type ForbiddenUse = { term: string; word: string };

/** The forbidden words a value of `language` uses, in the glossary's order. */
export type ForbiddenWords = (text: string, language: string) => ForbiddenUse[];

type Word = { term: string; case_sensitive: boolean; of: string };

/** Web and e-mail addresses: their words are a path or a mailbox, not the text's (`/login`, `login@…`). */
const ADDRESSES = /\b(?:https?:\/\/|www\.)[^\s<>"']+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/giu;

/** The words of a value a translator wrote: placeholders, tags, ICU syntax and addresses left out (a space each). */
function wordsOf(text: string): string {
  return protect(text)
    .segments.map((s) => s.replace(/<x id="\d+"\/>/g, ' ').replace(ADDRESSES, ' '))
    .join('\n');
}

/** `en-GB` beside the source `en`, or `en` beside `en-US`: one language in another region. */
const sameLanguage = (a: string, b: string) => a.split('-')[0]!.toLowerCase() === b.split('-')[0]!.toLowerCase();

/**
 * The word a forbidden term forbids in `language`: its spelling in the source language or when kept
 * as written, else its translation there. A regional variant of the source language without a
 * translation of its own forbids the spelling: "Login" not used in en is not used in en-GB either.
 */
const wordIn = (t: ForbiddenTerm, language: string, sourceLanguage: string): string | undefined =>
  language === sourceLanguage || !t.translatable ? t.term : (t.translations[language] ?? (sameLanguage(language, sourceLanguage) ? t.term : undefined));

/** A finder over a project's forbidden terms; undefined when it has none. One index per language, built when first asked. */
export function forbiddenWords(terms: readonly ForbiddenTerm[], sourceLanguage: string): ForbiddenWords | undefined {
  if (terms.length === 0) return undefined;
  const finders = new Map<string, (text: string) => Word[]>();
  return (text, language) => {
    let find = finders.get(language);
    if (find === undefined) {
      const words = terms.flatMap((t): Word[] => {
        const word = wordIn(t, language, sourceLanguage);
        return word === undefined ? [] : [{ term: word, case_sensitive: t.case_sensitive, of: t.term }];
      });
      find = words.length === 0 ? () => [] : termFinder(words);
      finders.set(language, find);
    }
    if (text.trim() === '') return [];
    return find(wordsOf(text)).map((w) => ({ term: w.of, word: w.term }));
  };
}

/** Above this many characters of texts, the narrowing below costs more than reading every forbidden term. */
const NARROWED_CHARS_MAX = 20_000;

/**
 * The project's forbidden terms, in the glossary's order (an index probe: glossary_terms_forbidden_idx).
 * Given the texts about to be judged (a PUT's one value), only the terms whose folded spelling or a
 * folded translation occurs in them: a list of thousands of words not to use (a profanity list) is
 * narrowed by PostgreSQL to the few a value could hold, instead of read and indexed whole for each write.
 */
export function readForbiddenTerms(sql: Sql | TransactionSql, projectId: string, texts?: readonly string[]): Promise<ForbiddenTerm[]> {
  const folded = texts === undefined ? null : fold(texts.join('\n'));
  const narrowed = folded !== null && folded.length <= NARROWED_CHARS_MAX;
  return sql<ForbiddenTerm[]>`
    select t.term, t.case_sensitive, t.translatable,
           coalesce((select jsonb_object_agg(x.language, x.text) from glossary_term_translations x where x.term_id = t.id), '{}'::jsonb) as translations
    from glossary_terms t where t.project_id = ${projectId} and t.forbidden
      ${narrowed ? sql`and (strpos(${folded}, t.term_folded) > 0 or exists (select 1 from glossary_term_translations x where x.term_id = t.id and strpos(${folded}, x.text_folded) > 0))` : sql``}
    order by t.term_folded collate "C"`;
}

/** The project's forbidden terms as a finder (of those `texts` could hold, when given); undefined when there are none. */
export async function readForbiddenWords(sql: Sql | TransactionSql, projectId: string, sourceLanguage: string, texts?: readonly string[]): Promise<ForbiddenWords | undefined> {
  return forbiddenWords(await readForbiddenTerms(sql, projectId, texts), sourceLanguage);
}
