// How the glossary compares spellings: NFC, then Unicode's default lower case. Done here, not with
// PostgreSQL's lower(), whose result follows the database's locale (the embedded database's is C,
// which folds ASCII only): stored beside each term and translation (migration 036), so uniqueness,
// search and the listing's order are the same on every database.
// Greek's final sigma folds to σ: toLowerCase writes ς or σ by the letters around it, so "ΚΩΔΙΚΟΣ"
// alone and "ΚΩΔΙΚΟΣ:" before a letter would fold apart.

/**
 * No-break spaces and HTML's `&nbsp;` are spaces to the glossary (migration 039): "Acme&nbsp;Cloud",
 * written so that a line never breaks inside a product's name, is the term "Acme Cloud", and so is
 * French's "Mot de passe" with U+00A0 or the narrow U+202F. Figure and thin spaces likewise.
 * Keep in step with the pattern of migration 039, which refolded the stored spellings.
 */
const NO_BREAK_SPACES = /&nbsp;|&#160;|&#x0*a0;|[\u00A0\u2007\u2009\u202F]/gi;

/** `s` with every no-break space (and `&nbsp;`) written as a space. */
export const spaced = (s: string) => (s.includes('&') || /[\u00A0\u2007\u2009\u202F]/.test(s) ? s.replace(NO_BREAK_SPACES, ' ') : s);

export const fold = (s: string) => spaced(s.normalize('NFC')).toLowerCase().replaceAll('ς', 'σ');
