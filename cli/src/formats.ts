// The file formats the server speaks, as a list (test/cli checks it against core/formats), so that
// commands start without loading any parser. The CLI reads source files itself only to know their
// keys (`push --remove-unused`); for that it loads the same pure codecs as the server (core/formats
// has no database or HTTP code), so both read a file the same way.
export const FORMAT_IDS = ['json', 'json-nested', 'i18next', 'xliff', 'xliff2', 'po', 'android', 'ios-strings', 'ios-stringsdict', 'arb', 'yaml', 'csv'];

/** Formats whose export carries the source language's text (XLIFF's <source>). */
const NEEDS_SOURCE = new Set(['xliff', 'xliff2']);
export const needsSource = (format: string) => NEEDS_SOURCE.has(format);

export async function keysOf(format: string, body: Uint8Array, language: string): Promise<string[]> {
  const { FORMATS } = await import('../../core/formats/index.ts');
  const codec = FORMATS[format as keyof typeof FORMATS];
  return codec.parse(body, { language }).entries.map((e) => e.key);
}
