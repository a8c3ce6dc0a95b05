// An Apple String Catalog (`Localizable.xcstrings`) holds every language of an app in one JSON file,
// which Xcode also writes (it adds the keys it extracts from code, with their comments and
// extraction states). The server's export gives one language's texts as a catalog of their own;
// `tms pull` merges each language into the repository's file, so that the other languages, the keys
// Xcode extracted but nobody pushed yet and Xcode's own fields stay as they were, and writes the
// result in Xcode's layout (the server's codec, core/formats/codecs/xcstrings.ts, writes the same:
// test/cli/xcstrings.test.ts compares them), so that a pull that changes nothing changes no byte.

import { canonicalLanguage } from './config-file.ts';
import { usageError } from './errors.ts';

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
 * `pulled` (the server's catalog of `language`) merged into `base`, in place:
 * - each key the server gives gets its `language` text, unless the file's text reads the same
 *   (ignoring Xcode's `state` and how it spells the count: `%d`, `%ld`, `%arg`), which then stays
 *   as Xcode wrote it; a key new to the file comes with its comment;
 * - with `onServer` (the server's keys; none under a tag, whose export holds only the tag's keys),
 *   a key the server has but gives no text in `language` loses the file's text, as a per-language
 *   file would lose it (removed or not approved on the server), but only a text the server reads
 *   (plain, or plural forms): substitutions, device variations, untranslated units and keys not to
 *   translate are what the server never imports, so their absence there says nothing;
 * - a source text equal to its key stays implicit where the file leaves it so, as Xcode writes
 *   extracted strings.
 * Language codes compare ignoring case (`zh-hans` in the file is the server's `zh-Hans`) and keep
 * the file's spelling.
 */
export function mergeLanguage(base: Catalog, pulled: Catalog, language: string, onServer: ReadonlySet<string> | undefined): void {
  const source = language.toLowerCase() === base.sourceLanguage.toLowerCase();
  for (const [key, entry] of Object.entries(pulled.strings)) {
    const text = entry.localizations?.[language];
    const known = Object.hasOwn(base.strings, key);
    const target: CatalogEntry = known ? base.strings[key]! : { ...(entry.comment === undefined ? {} : { comment: entry.comment }), extractionState: entry.extractionState ?? 'manual' };
    // Defined, not assigned: a key named __proto__ would otherwise set the object's prototype.
    if (!known) Object.defineProperty(base.strings, key, { value: target, enumerable: true, writable: true, configurable: true });
    if (text === undefined) continue;
    const spelled = spelling(target.localizations, language);
    const mine = spelled === undefined ? undefined : target.localizations![spelled];
    if (mine === undefined && source && implicitSource(key, text)) continue;
    if (mine !== undefined && sameText(mine, text)) continue;
    target.localizations = { ...target.localizations, [spelled ?? language]: text };
  }
  if (onServer === undefined) return;
  for (const [key, entry] of Object.entries(base.strings)) {
    const spelled = spelling(entry.localizations, language);
    if (spelled === undefined || !onServer.has(key) || entry.shouldTranslate === false) continue;
    if (pulled.strings[key]?.localizations?.[language] !== undefined || !serverReads(entry.localizations![spelled])) continue;
    const { [spelled]: _gone, ...rest } = entry.localizations!;
    if (Object.keys(rest).length) entry.localizations = rest;
    else delete entry.localizations;
  }
}

/** The name `language` has among a key's localizations, compared ignoring case. */
function spelling(localizations: Record<string, unknown> | undefined, language: string): string | undefined {
  if (localizations === undefined) return undefined;
  if (Object.hasOwn(localizations, language)) return language;
  return Object.keys(localizations).find((code) => code.toLowerCase() === language.toLowerCase());
}

const unitRead = (unit: unknown) => isObject(unit) && Object.keys(unit).length === 1 && isObject(unit.stringUnit) && typeof unit.stringUnit.value === 'string' && unit.stringUnit.value !== '' && unit.stringUnit.state !== 'new';

/** A localization the server imports: a plain text, or plural forms of plain texts. */
function serverReads(text: unknown): boolean {
  if (unitRead(text)) return true;
  if (!isObject(text) || Object.keys(text).length !== 1 || !isObject(text.variations)) return false;
  const { variations } = text;
  return Object.keys(variations).length === 1 && isObject(variations.plural) && Object.values(variations.plural).every(unitRead);
}

/** A plain text equal to the key: what Xcode leaves out of the source language. */
const implicitSource = (key: string, text: unknown) => unitRead(text) && (text as { stringUnit: { value: string } }).stringUnit.value === key;

/** Two localizations that read the same: equal but for `state`, `argNum`, `formatSpecifier` and the count's spelling. */
const sameText = (a: unknown, b: unknown) => JSON.stringify(normal(a)) === JSON.stringify(normal(b));
const COUNT = /%(?:\d+\$)?(?:ll|l|h|hh|q|z|t|j)?[diu]|%arg/g;
function normal(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(COUNT, '%#');
  if (Array.isArray(value)) return value.map(normal);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .filter((name) => name !== 'state' && name !== 'argNum' && name !== 'formatSpecifier')
      .sort()
      .map((name) => [name, normal(value[name])]),
  );
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

/**
 * A catalog whose sourceLanguage is not the config's (`en` against `en-US`): its implicit source
 * texts would be filed under neither, so push imported no source text and pull would write the
 * source under a second code. Refused (exit 2) before anything is sent or written.
 */
export function refuseOtherSource(path: string, catalogSource: string, configSource: string): void {
  if (canonicalLanguage(catalogSource) === configSource) return;
  throw usageError(`${path}: the catalog's sourceLanguage is ${JSON.stringify(catalogSource)} and the config's sourceLanguage ${configSource}: make them the same (in Xcode, the project's development language); nothing was sent or written`);
}
