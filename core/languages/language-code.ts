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
  let name: string;
  try {
    name = names.of(code) ?? code;
  } catch {
    return code;
  }
  // CLDR names `und` (undetermined, a valid code) after its internal root locale: "root (Latin)".
  return name.startsWith('root') ? `Undetermined${name.slice(4)}` : name;
}

const isoCodes = new Map<string, string | null>();

/**
 * ISO 639-1 code of the primary subtag, or null when its language has none. A 3-letter code may
 * name a language that has one (`deu` is German, `de`): BCP 47's canonical form, which prefers the
 * 2-letter code whenever it exists, says which. Kept per primary subtag (a project's few codes).
 */
export function iso639_1(code: string): string | null {
  const primary = code.split('-')[0]!;
  if (primary.length === 2) return primary;
  let iso = isoCodes.get(primary);
  if (iso === undefined) {
    let canonical = primary;
    try {
      canonical = Intl.getCanonicalLocales(primary)[0]!.split('-')[0]!;
    } catch {
      // Not a tag Intl takes: no 2-letter form known.
    }
    iso = canonical.length === 2 ? canonical : null;
    isoCodes.set(primary, iso);
  }
  return iso;
}
