// What a glossary file says, whatever its format (CSV or TBX): its terms in the project's source
// language, each with what the file gives of its description, flags and translations. A field the
// file leaves out (an empty cell, a missing column or element) is undefined: an import leaves the
// glossary's own as it is (docs/decisions.md, "Glossary files").
import * as v from 'valibot';
import type { ValidationIssue } from '../../errors.ts';
import type { FormatLoc } from '../../formats/format-error.ts';
import { canonicalLanguageCode } from '../../languages/language-code.ts';
import { labelText, nfc } from '../../validation.ts';
import { noNoncharacters, TermDescription, TERM_MAX_CHARS } from '../schemas.ts';
import { fold } from '../fold.ts';

export const GLOSSARY_FORMATS = ['csv', 'tbx'] as const;
export type GlossaryFormat = (typeof GLOSSARY_FORMATS)[number];

export type FileTerm = {
  /** The spelling as the file writes it, in NFC. */
  term: string;
  loc: FormatLoc;
  description?: string;
  caseSensitive?: boolean;
  translatable?: boolean;
  /** A word not to use (schemas.ts). */
  forbidden?: boolean;
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

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const scriptNames = new Intl.DisplayNames(['en'], { type: 'script', fallback: 'none' });
const known = (names: Intl.DisplayNames, code: string) => {
  try {
    return names.of(code) !== undefined;
  } catch {
    return false;
  }
};

/**
 * A file's column or section name as a language code: canonical, '_' read as '-' (en_US, as Java
 * and gettext write them), and only a real language with a real region or script: `de_note` (a
 * Lokalise-style notes column) is no code for German with a script "Note".
 */
function fileLanguageCode(written: string): string | null {
  const code = canonicalLanguageCode(written.trim().replaceAll('_', '-'));
  if (code === null) return null;
  const [primary, sub] = code.split('-') as [string, string | undefined];
  if (!known(languageNames, primary)) return null;
  if (sub !== undefined && !(sub.length === 4 ? known(scriptNames, sub) : /^[A-Z]{2}$/.test(sub) && known(regionNames, sub))) return null;
  return code;
}

/**
 * The project language a file's code names, or null. A project's own code is read as written (in
 * any casing). A regional code reads into the project's language without region when the project
 * has no such region (a term base's en-US is the project's en), and a bare code into the project's
 * only regional variant of it (de into de-DE).
 */
export function languageReader(languages: ProjectLanguages): (written: string) => string | null {
  const codes = new Set([languages.source, ...languages.codes]);
  return (written) => {
    const exact = canonicalLanguageCode(written.trim().replaceAll('_', '-'));
    if (exact !== null && codes.has(exact)) return exact;
    const code = fileLanguageCode(written);
    if (code === null) return null;
    const [primary] = code.split('-') as [string];
    if (code !== primary) return codes.has(primary) ? primary : null;
    const variants = [...codes].filter((c) => c.startsWith(`${primary}-`));
    return variants.length === 1 ? variants[0]! : null;
  };
}

export const looksLikeLanguageCode = (s: string) => fileLanguageCode(s) !== null;

/** Cells that say which row it is, not how a term is said: numbers, UUIDs (a spreadsheet's "ID" column, not Indonesian). */
export const isIdentifier = (s: string) => /^(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.test(s.trim());

const Term = v.pipe(v.string(), v.transform(nfc), labelText('term', TERM_MAX_CHARS), noNoncharacters('term'));
const Description = TermDescription;
const TermText = v.pipe(labelText('translation', TERM_MAX_CHARS), noNoncharacters('translation'));

/** The message of the first rule a text breaks, or null: the same rules as the API's fields. */
const problem = (schema: v.GenericSchema<string, string>, text: string): string | null => v.safeParse(schema, text).issues?.[0]?.message ?? null;
export const termProblem = (text: string) => problem(Term, text);
/** A description as the API stores it (a pasted vertical tab a line break), or the rule it breaks. */
export function readDescription(text: string): { text: string; problem?: undefined } | { problem: string } {
  const result = v.safeParse(Description, text);
  return result.success ? { text: result.output } : { problem: result.issues[0].message };
}
export const translationProblem = (text: string) => problem(TermText, text);

/** A yes/no cell or note: yes, no, true, false, 1, 0, y, n in any case; empty is undefined; null for anything else. */
export function flagValue(text: string): boolean | undefined | null {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  if (['yes', 'true', '1', 'y'].includes(t)) return true;
  if (['no', 'false', '0', 'n'].includes(t)) return false;
  return null;
}

/**
 * A term of the file, in NFC, checked as the API checks one and against the file's earlier terms
 * (`seen`: each folded spelling's line): null, the reason given to `refuse`, when it cannot be one.
 */
export function fileTerm(written: string, line: number, seen: Map<string, number>, refuse: (msg: string) => void): FileTerm | null {
  const term = written.normalize('NFC');
  const bad = termProblem(term);
  if (bad) {
    refuse(bad);
    return null;
  }
  const folded = fold(term);
  const first = seen.get(folded);
  if (first !== undefined) {
    refuse(`term '${term}' appears twice (lines ${first} and ${line}; spellings are compared in any case)`);
    return null;
  }
  seen.set(folded, line);
  return { term, loc: ['body', 'line', line], translations: new Map() };
}

/** The entry's description from the file's text, as the API stores it, or its problem given to `refuse`. */
export function describeTerm(entry: FileTerm, text: string, refuse: (msg: string) => void): void {
  const read = readDescription(text);
  if (read.problem !== undefined) refuse(read.problem);
  else entry.description = read.text;
}
