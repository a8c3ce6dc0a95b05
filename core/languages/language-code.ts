// Language codes (section 2): a 2-3 letter primary subtag, optionally a hyphen and a 2-4 letter
// subtag: xx, xxx, xx-YY, xx-Yyyy. BCP 47 tags are case-insensitive, so any casing is accepted and
// canonicalized (primary lower, 2-3 letter region upper, 4 letter script title case) everywhere a
// code enters: bodies and paths alike. "pt-br" and "PT-BR" both mean "pt-BR".
import * as v from 'valibot';

const CODE_PATTERN = /^([A-Za-z]{2,3})(?:-([A-Za-z]{2,4}))?$/;

export function canonicalLanguageCode(input: string): string | null {
  const m = CODE_PATTERN.exec(input);
  if (!m) return null;
  const primary = m[1]!.toLowerCase();
  const sub = m[2];
  if (sub === undefined) return primary;
  const canonicalSub = sub.length === 4 ? sub[0]!.toUpperCase() + sub.slice(1).toLowerCase() : sub.toUpperCase();
  return `${primary}-${canonicalSub}`;
}

export const LanguageCode = v.pipe(
  v.string('language code must be a string'),
  // The rule below as a pattern for /openapi.json (metadata only: the check is what validates).
  v.metadata({ pattern: CODE_PATTERN.source }),
  v.check(
    (s) => canonicalLanguageCode(s) !== null,
    'language code must look like xx, xxx, xx-YY or xx-Yyyy (BCP 47: a 2-3 letter language, optionally a 2-4 letter region or script)',
  ),
  v.transform((s) => canonicalLanguageCode(s)!),
);

const names = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard', fallback: 'code' });

/** English display name: "German", "Portuguese (Brazil)", "Chinese (Traditional)". */
export function languageName(code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** ISO 639-1 code of the primary subtag; BCP 47 uses the 2-letter form whenever one exists. */
export function iso639_1(code: string): string | null {
  const primary = code.split('-')[0]!;
  return primary.length === 2 ? primary : null;
}
