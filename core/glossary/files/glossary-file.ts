// What a glossary file says, whatever its format (CSV or TBX): its terms in the project's source
// language, each with what the file gives of its description, flags and translations. A field the
// file leaves out (an empty cell, a missing column or element) is undefined: an import leaves the
// glossary's own as it is (docs/decisions.md, "Glossary files").
import * as v from 'valibot';
import type { ValidationIssue } from '../../errors.ts';
import type { FormatLoc } from '../../formats/format-error.ts';
import { canonicalLanguageCode } from '../../languages/language-code.ts';
import { storableText, labelText, nfc } from '../../validation.ts';
import { TERM_DESCRIPTION_MAX_CHARS, TERM_MAX_CHARS } from '../schemas.ts';

export const GLOSSARY_FORMATS = ['csv', 'tbx'] as const;
export type GlossaryFormat = (typeof GLOSSARY_FORMATS)[number];

export type FileTerm = {
  /** The spelling as the file writes it, in NFC. */
  term: string;
  loc: FormatLoc;
  description?: string;
  caseSensitive?: boolean;
  translatable?: boolean;
  /** Project language code → text: only the project's languages other than its source. */
  translations: Map<string, string>;
};

export type GlossaryFile = { terms: FileTerm[]; warnings: string[]; issues: ValidationIssue[] };

/** The project's languages as a file is read against them. */
export type ProjectLanguages = { source: string; codes: readonly string[] };

/** How many refused entries one answer lists: a file with 10,000 bad rows is not a 10,000-issue answer. */
export const ISSUES_LISTED = 100;

/** The refusals of a file's entries: the first ISSUES_LISTED, then one more issue that counts the rest. */
export function refusals() {
  const issues: ValidationIssue[] = [];
  let more = 0;
  return {
    refuse(loc: FormatLoc, msg: string) {
      if (issues.length < ISSUES_LISTED) issues.push({ loc, msg, type: 'entry_invalid' });
      else more++;
    },
    issues(): ValidationIssue[] {
      return more === 0 ? issues : [...issues, { loc: ['body'], msg: `and ${more.toLocaleString('en-US')} more refused (the first ${ISSUES_LISTED} are listed)`, type: 'entry_invalid' }];
    },
  };
}

/**
 * The project language a file's code names, or null. Codes compare in any casing and with '_' for
 * '-' (en_US, as Java and gettext write them). A regional code reads into the project's language
 * without region when the project has no such region (a term base's en-US is the project's en),
 * and a bare code into the project's only regional variant of it (de into de-DE).
 */
export function languageReader(languages: ProjectLanguages): (written: string) => string | null {
  const codes = new Set([languages.source, ...languages.codes]);
  return (written) => {
    const code = canonicalLanguageCode(written.trim().replaceAll('_', '-'));
    if (code === null) return null;
    if (codes.has(code)) return code;
    const [primary] = code.split('-') as [string];
    if (code !== primary) return codes.has(primary) ? primary : null;
    const variants = [...codes].filter((c) => c.startsWith(`${primary}-`));
    return variants.length === 1 ? variants[0]! : null;
  };
}

export const looksLikeLanguageCode = (s: string) => canonicalLanguageCode(s.trim().replaceAll('_', '-')) !== null;

const Term = v.pipe(v.string(), v.transform(nfc), labelText('term', TERM_MAX_CHARS));
const Description = v.pipe(v.string(), v.trim(), storableText('description', TERM_DESCRIPTION_MAX_CHARS));
const TermText = labelText('translation', TERM_MAX_CHARS);

/** The message of the first rule a text breaks, or null: the same rules as the API's fields. */
const problem = (schema: v.GenericSchema<string, string>, text: string): string | null => v.safeParse(schema, text).issues?.[0]?.message ?? null;
export const termProblem = (text: string) => problem(Term, text);
export const descriptionProblem = (text: string) => problem(Description, text);
export const translationProblem = (text: string) => problem(TermText, text);

/** A yes/no cell or note: yes, no, true, false, 1, 0, y, n in any case; empty is undefined; null for anything else. */
export function flagValue(text: string): boolean | undefined | null {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  if (['yes', 'true', '1', 'y'].includes(t)) return true;
  if (['no', 'false', '0', 'n'].includes(t)) return false;
  return null;
}
