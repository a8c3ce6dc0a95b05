// How the glossary compares spellings: NFC, then Unicode's default lower case. Done here, not with
// PostgreSQL's lower(), whose result follows the database's locale (the embedded database's is C,
// which folds ASCII only): stored beside each term and translation (migration 036), so uniqueness,
// search and the listing's order are the same on every database.
// Greek's final sigma folds to σ: toLowerCase writes ς or σ by the letters around it, so "ΚΩΔΙΚΟΣ"
// alone and "ΚΩΔΙΚΟΣ:" before a letter would fold apart.
export const fold = (s: string) => s.normalize('NFC').toLowerCase().replaceAll('ς', 'σ');
