// An Apple String Catalog (`Localizable.xcstrings`) holds every language of an app in one JSON file,
// which Xcode also writes (it adds the keys it extracts from code, with their comments and
// extraction states). The server's export gives one language's texts as a catalog of their own;
// `tms pull` merges each language into the repository's file, so that the other languages, the keys
// Xcode extracted but nobody pushed yet and Xcode's own fields stay as they were, and writes the
// result in Xcode's layout (the server's codec, core/formats/codecs/xcstrings.ts, writes the same:
// test/cli/xcstrings.test.ts compares them), so that a pull that changes nothing changes no byte.

/** A catalog's fields the merge reads; the others (Xcode's) are kept as they are. */
export type CatalogEntry = { comment?: unknown; extractionState?: unknown; localizations?: Record<string, unknown>; [field: string]: unknown };
export type Catalog = { sourceLanguage: string; strings: Record<string, CatalogEntry>; [field: string]: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The catalog in `bytes`; an Error saying what is wrong when they are none. */
export function readCatalog(bytes: Uint8Array): Catalog {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  const value: unknown = JSON.parse(text);
  if (!isObject(value)) throw new Error('a String Catalog is a JSON object');
  if (typeof value.sourceLanguage !== 'string') throw new Error('the catalog has no "sourceLanguage"');
  if (value.strings !== undefined && !isObject(value.strings)) throw new Error('the catalog\'s "strings" is not an object');
  for (const [key, entry] of Object.entries((value.strings ?? {}) as object)) {
    if (!isObject(entry)) throw new Error(`the catalog's entry ${JSON.stringify(key)} is not an object`);
    if (entry.localizations !== undefined && !isObject(entry.localizations)) throw new Error(`the catalog's entry ${JSON.stringify(key)} has "localizations" that are not an object`);
  }
  return { ...(value as Catalog), strings: (value.strings ?? {}) as Record<string, CatalogEntry> };
}

/** An empty catalog of `sourceLanguage`, as Xcode makes a new one. */
export const emptyCatalog = (sourceLanguage: string): Catalog => ({ sourceLanguage, strings: {}, version: '1.0' });

/**
 * `pulled` (the server's catalog of `language`) merged into `base`, in place: each key the server
 * gives gets its `language` text (a key new to the file comes with its comment); with `prune`, a
 * key the server gives no text in `language` loses the file's one (the server is where
 * translations are made; without it a translation removed or unapproved there would stay in the
 * app). Not pruned under a tag: the export then holds only the tag's keys. A source text equal to
 * its key stays implicit where the file leaves it so, as Xcode writes extracted strings.
 */
export function mergeLanguage(base: Catalog, pulled: Catalog, language: string, prune: boolean): void {
  const source = language === base.sourceLanguage;
  for (const [key, entry] of Object.entries(pulled.strings)) {
    const text = entry.localizations?.[language];
    const known = Object.hasOwn(base.strings, key);
    const target: CatalogEntry = known ? base.strings[key]! : { ...(entry.comment === undefined ? {} : { comment: entry.comment }), extractionState: entry.extractionState ?? 'manual' };
    if (!known) base.strings[key] = target;
    if (text === undefined) continue;
    if (source && implicitSource(key, text) && !Object.hasOwn(target.localizations ?? {}, language)) continue;
    target.localizations = { ...target.localizations, [language]: text };
  }
  if (!prune) return;
  for (const [key, entry] of Object.entries(base.strings)) {
    if (!entry.localizations || !Object.hasOwn(entry.localizations, language)) continue;
    if (pulled.strings[key]?.localizations?.[language] !== undefined) continue;
    // What the server never reads stays: device variations, a key not to translate.
    if (entry.shouldTranslate === false || hasDeviceVariations(entry.localizations[language])) continue;
    const { [language]: _gone, ...rest } = entry.localizations;
    if (Object.keys(rest).length) entry.localizations = rest;
    else delete entry.localizations;
  }
}

const hasDeviceVariations = (text: unknown) => isObject(text) && isObject(text.variations) && Object.hasOwn(text.variations, 'device');

/** A plain translated text equal to the key: what Xcode leaves out of the source language. */
function implicitSource(key: string, text: unknown): boolean {
  if (!isObject(text) || Object.keys(text).length !== 1 || !isObject(text.stringUnit)) return false;
  return text.stringUnit.value === key;
}

/**
 * The catalog's bytes as Xcode writes them (the server's core/formats/xcstrings/catalog-json.ts
 * writes the same; the CLI ships without the server's code, and test/cli/xcstrings.test.ts holds
 * the two to the same bytes): two-space indents, `"name" : value`, an empty object as `{`, an
 * empty line and `}`, `/` and non-ASCII characters as they are, no newline at the end, and each
 * object's names in Foundation's localizedStandardCompare order (case ignored, digits as numbers).
 */
export function writeCatalog(catalog: Catalog): Uint8Array {
  return new TextEncoder().encode(layout(catalog, ''));
}

function layout(value: unknown, indent: string): string {
  const inner = indent + '  ';
  if (Array.isArray(value)) return value.length === 0 ? `[\n\n${indent}]` : `[\n${value.map((v) => inner + layout(v, inner)).join(',\n')}\n${indent}]`;
  if (isObject(value)) {
    const names = Object.keys(value).filter((name) => value[name] !== undefined).sort(compareNames);
    if (names.length === 0) return `{\n\n${indent}}`;
    return `{\n${names.map((name) => `${inner}${quote(name)} : ${layout(value[name], inner)}`).join(',\n')}\n${indent}}`;
  }
  return typeof value === 'string' ? quote(value) : JSON.stringify(value);
}

// JSON's escapes for `"`, `\` and control characters only (JSON.stringify also escapes lone surrogates).
const quote = (s: string) => `"${s.replace(/["\\\u0000-\u001f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

// Case and width ignored, numbers by value; ties broken by case, then code units, for one order.
const primary = new Intl.Collator('en', { numeric: true, sensitivity: 'accent', usage: 'sort' });
const full = new Intl.Collator('en', { numeric: true, sensitivity: 'variant', usage: 'sort' });
const compareNames = (a: string, b: string) => primary.compare(a, b) || full.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
