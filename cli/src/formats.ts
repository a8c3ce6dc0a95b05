// The file formats the server speaks, as a list (test/cli checks it against the server's), so that
// commands start without loading any reader. The CLI reads files itself only to know their keys
// (`push --remove-unused`), with the small readers of ./file-keys/.
export const FORMAT_IDS = ['json', 'json-nested', 'i18next', 'xliff', 'xliff2', 'po', 'android', 'ios-strings', 'ios-stringsdict', 'arb', 'yaml', 'csv', 'properties', 'resx', 'xlsx', 'xcstrings'];

/** Formats whose export carries the source language's text (XLIFF's <source>). */
const NEEDS_SOURCE = new Set(['xliff', 'xliff2']);
export const needsSource = (format: string) => NEEDS_SOURCE.has(format);

/**
 * Formats whose one file holds every language (Apple's String Catalog, `Localizable.xcstrings`):
 * mapped by a path without {language}; push sends the file once per language, pull merges each
 * language's texts into it (./xcstrings-catalog.ts).
 */
const EVERY_LANGUAGE = new Set(['xcstrings']);
export const holdsEveryLanguage = (format: string) => EVERY_LANGUAGE.has(format);
