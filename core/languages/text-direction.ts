// The writing direction of a language's text, for the portal's value fields and displays (an
// Arabic or Hebrew value typed into a left-to-right field puts its punctuation and cursor in the
// wrong places). Decided by the language's script: an explicit script subtag ("az-Arab",
// "ku-Latn"), else the script CLDR's likely subtags give the language ("ur" -> Arab, "ckb" ->
// Arab, "pa-PK" -> Arab, "ku" -> Latn).
const RTL_SCRIPTS = new Set(['Adlm', 'Arab', 'Hebr', 'Mand', 'Mend', 'Nkoo', 'Rohg', 'Samr', 'Syrc', 'Thaa', 'Yezi']);
/** Used only when the runtime has no likely-subtags data (Node without full ICU). */
const RTL_LANGUAGES = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ks', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi']);

const known = new Map<string, 'rtl' | 'ltr'>();

export function textDirection(code: string): 'rtl' | 'ltr' {
  let dir = known.get(code);
  if (dir) return dir;
  let script: string | undefined;
  try {
    script = new Intl.Locale(code).maximize().script;
  } catch {
    script = undefined;
  }
  dir = (script ? RTL_SCRIPTS.has(script) : RTL_LANGUAGES.has(code.split('-')[0]!.toLowerCase())) ? 'rtl' : 'ltr';
  if (known.size < 1000) known.set(code, dir);
  return dir;
}

/** The attributes of an element holding text in `code`: its language and direction. */
export const textAttrs = (code: string) => ({ lang: code, dir: textDirection(code) });
