// Apple String Catalog (.xcstrings, Xcode 15+): one JSON file holding every language of a strings
// table. The codec reads and writes one language of it, as every codec does; `tms pull` merges the
// languages' files into one catalog (xcstrings/catalog-json.ts writes it in Xcode's layout).
//
// Reading `language`: each key of `strings` with a localization in that language is an entry, its
// `comment` the description. A localization is a `stringUnit` (its value), a plural
// (`variations.plural`: an ICU plural over `count`, `%lld` / `%d` as `#`, `zero` as `=0` unless the
// language has a zero category, as .stringsdict), or a stringUnit format with `substitutions`
// (`%#@name@`: ICU text with one plural per substitution over the argument `name`, its `%arg` or
// integer conversion as `#`). In the source language a key without a localization is its own
// text (Xcode's `Text("Hello")` makes the key "Hello" and no `en` entry). Skipped: a localization
// whose stringUnit is state `new` and empty (untranslated), keys marked `shouldTranslate: false`
// in every language but the source, and, with a warning naming them, device variations (tms has
// none), positional (`%1$#@x@`) and nested substitutions, substitution names that cannot be ICU
// argument names, the empty key and keys with control characters (tms keys cannot hold them).
// `state` (`translated`, `needs_review`, `stale`) is not read: an import's status comes from its
// `status` parameter, as in every format.
//
// Writing: `sourceLanguage` (the source given, else the language), `version` 1.0, and per key its
// comment, `extractionState: manual` and this language's localization, state `translated`: a whole
// plural as `variations.plural` with `%lld` for `#`; text around plurals, or several plurals, as a
// format of `%#@name@` with `substitutions` (argNum, formatSpecifier `lld`, `%arg` for `#`) as Xcode
// writes them; anything else (and a plural a catalog cannot express: an ordinal, a select, an `=1`,
// a nested plural) as the stringUnit's value, ICU text as it is, which reads back unchanged.
import type { Entry, FormatCodec, SerializeContext } from '../types.ts';
import { FormatError, type FormatLoc } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { readJson, jsonKind, type JsonNode } from '../json/read-json.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { controlCharacterWarnings, hasControlCharacters, type SkippedKey } from '../entries/control-character-keys.ts';
import { clip } from '../text/clip.ts';
import { compareSelectors, isCategory } from '../plural/categories.ts';
import { pluralToIcu, pluralToNative, type NativePlural } from '../plural/native-plural.ts';
import { readIcuPlural } from '../plural/icu-plural.ts';
import { printfDialect } from '../plural/dialects.ts';
import { selectorFromNative, selectorToNative } from '../plural/selectors.ts';
import { partsOf, sameMessage } from '../plural/message-parts.ts';
import { escapeIcuLiteral } from '../plural/icu-escape.ts';
import { writeCatalog, type CatalogObject } from '../xcstrings/catalog-json.ts';

/** Any integer conversion is the count in a form that has no other one (`%lld`, `%ld`, `%d`). */
const INTEGER_COUNT = '%(?:ll|l)?[diu]';
/** A plural variation's forms: the count is `%lld` (Xcode's for Swift's Int), `%d` and `%ld` read too. */
const PLURAL_DIALECT = printfDialect('lld', INTEGER_COUNT);
/** A substitution's forms: Xcode writes the substitution's own argument as `%arg`. */
const SUBSTITUTION_DIALECT = printfDialect('arg', INTEGER_COUNT);
const FORMAT_SPECIFIER = 'lld';
const REFERENCE = /%(\d+\$)?#@([^@]*)@/g;
const VAR_NAME = /^[\p{L}\p{N}_]+$/u;
/** How many keys a warning about skipped keys names; it counts them all. */
const NAMED = 10;

type Obj = Extract<JsonNode, { kind: 'object' }>;
type Ctx = { key: string; language: string; line: (offset: number) => number; warnings: string[] };

/** A key this language cannot import (a device variation, a positional substitution): skipped with the message as a warning. */
class Skip extends Error {}

const member = (o: Obj, name: string): JsonNode | undefined => o.members.find((m) => m.key === name)?.value;
const loc = (ctx: Ctx, ...path: string[]): FormatLoc => ['body', 'strings', ctx.key, ...path];
const where = (ctx: Ctx, node: JsonNode) => `line ${ctx.line(node.offset)}`;

function object(node: JsonNode | undefined, ctx: Ctx, path: string[], what: string): Obj | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== 'object') throw new FormatError(loc(ctx, ...path), `${what} must be an object, found ${jsonKind(node)} (${where(ctx, node)})`);
  return node;
}

function optionalString(node: JsonNode | undefined, ctx: Ctx, path: string[], what: string): string | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== 'string') throw new FormatError(loc(ctx, ...path), `${what} must be a string, found ${jsonKind(node)} (${where(ctx, node)})`);
  return node.value;
}

/** A stringUnit's value, or null when it is untranslated (state `new` and empty). */
function stringUnit(node: JsonNode, ctx: Ctx, path: string[]): string | null {
  const unit = object(node, ctx, path, 'a stringUnit');
  if (unit === undefined) return null;
  const value = member(unit, 'value');
  if (value?.kind !== 'string') {
    throw new FormatError(loc(ctx, ...path, 'value'), `the stringUnit has no string "value" (${where(ctx, value ?? unit)})`);
  }
  const state = optionalString(member(unit, 'state'), ctx, [...path, 'state'], 'a stringUnit\'s "state"');
  return state === 'new' && value.value === '' ? null : value.value;
}

/**
 * The forms of a `variations` object that must be a plural, as ICU selectors to native text; null
 * when none is translated. Device variations and other kinds skip the key.
 */
function pluralForms(node: JsonNode, ctx: Ctx, path: string[], what: string): Map<string, string> | null {
  const variations = object(node, ctx, path, '"variations"');
  if (variations === undefined) return null;
  const kinds = variations.members.map((m) => m.key);
  if (kinds.includes('device')) throw new Skip(`${what} varies by device, which tms cannot store`);
  const plural = object(member(variations, 'plural'), ctx, [...path, 'plural'], '"plural"');
  if (plural === undefined || kinds.length !== 1) throw new Skip(`${what} has variations of a kind tms cannot store (${kinds.join(', ') || 'none'})`);
  const forms = new Map<string, string>();
  for (const m of plural.members) {
    const at = [...path, 'plural', m.key];
    if (!isCategory(m.key)) throw new FormatError(loc(ctx, ...at), `"${m.key}" is not a plural category (zero, one, two, few, many, other) (${where(ctx, m.value)})`);
    const form = object(m.value, ctx, at, `the "${m.key}" form`);
    if (form === undefined) continue;
    if (member(form, 'variations') !== undefined || member(form, 'substitutions') !== undefined) throw new Skip(`${what} nests variations inside its "${m.key}" form`);
    const unit = member(form, 'stringUnit');
    if (unit === undefined) throw new FormatError(loc(ctx, ...at), `the "${m.key}" form has no stringUnit (${where(ctx, form)})`);
    const text = stringUnit(unit, ctx, [...at, 'stringUnit']);
    if (text === null) continue;
    if (new RegExp(REFERENCE.source).test(text)) throw new Skip(`${what} nests a substitution inside its "${m.key}" form`);
    forms.set(selectorFromNative(m.key, ctx.language, true), text);
  }
  if (forms.size === 0) return null;
  if (!forms.has('other')) {
    const last = [...forms.keys()].sort(compareSelectors).at(-1) ?? 'other';
    forms.set('other', forms.get(last) ?? '');
    ctx.warnings.push(`${ctx.key}: ${what} has no "other" form, so the "${last}" text was used for it`);
  }
  return forms;
}

/** The stringUnit format with its substitutions as ICU text and plurals; null when untranslated. */
function substituted(format: string, substitutions: Obj, ctx: Ctx, path: string[]): string | null {
  const refs = [...format.matchAll(REFERENCE)];
  if (refs.some((r) => r[1] !== undefined)) throw new Skip('positional substitutions (%1$#@name@) are not supported');
  const missing = refs.map((r) => r[2] ?? '').filter((name) => member(substitutions, name) === undefined);
  if (missing.length) {
    // iOS prints such a reference as it is; so does the stored value.
    ctx.warnings.push(`${ctx.key}: the value names ${missing.map((m) => `%#@${m}@`).join(', ')} but has no substitution for it, so it was imported as text`);
    return format;
  }
  let out = '';
  let last = 0;
  for (const [i, ref] of refs.entries()) {
    const name = ref[2] ?? '';
    if (!VAR_NAME.test(name)) throw new Skip(`the substitution name "${name}" cannot be an ICU argument name`);
    if (refs.findIndex((r) => r[2] === name) !== i) throw new Skip(`the substitution ${name} is used twice`);
    const at = [...path, 'substitutions', name];
    const substitution = object(member(substitutions, name), ctx, at, `the substitution "${name}"`);
    const variations = substitution && member(substitution, 'variations');
    if (substitution === undefined || variations === undefined) throw new Skip(`the substitution ${name} has no variations`);
    const forms = pluralForms(variations, ctx, [...at, 'variations'], `the substitution ${name}`);
    if (forms === null) return null;
    out += escapeIcuLiteral(format.slice(last, ref.index), false, '{');
    out += pluralToIcu({ arg: name, ordinal: false, forms }, SUBSTITUTION_DIALECT);
    last = ref.index + ref[0].length;
  }
  return refs.length ? out + escapeIcuLiteral(format.slice(last), false) : format;
}

/** One localization's value, or null when it holds no translation. */
function localizationValue(node: JsonNode, ctx: Ctx): string | null {
  const path = ['localizations', ctx.language];
  const localization = object(node, ctx, path, 'a localization');
  if (localization === undefined) return null;
  const variations = member(localization, 'variations');
  const substitutions = object(member(localization, 'substitutions'), ctx, [...path, 'substitutions'], '"substitutions"');
  if (variations !== undefined) {
    if (substitutions !== undefined) throw new Skip('variations with substitutions inside them are not supported');
    const forms = pluralForms(variations, ctx, [...path, 'variations'], 'the value');
    return forms === null ? null : pluralToIcu({ arg: 'count', ordinal: false, forms }, PLURAL_DIALECT);
  }
  const unit = member(localization, 'stringUnit');
  if (unit === undefined) return null;
  const format = stringUnit(unit, ctx, [...path, 'stringUnit']);
  if (format === null) return null;
  if (substitutions !== undefined) return substituted(format, substitutions, ctx, path);
  if (new RegExp(REFERENCE.source).test(format)) ctx.warnings.push(`${ctx.key}: the value names a substitution (%#@name@) but has none, so it was imported as text`);
  return format;
}

/** The localization of `language`: the same code, else one that differs only in letter case (`zh-hans`). */
function localizationOf(localizations: Obj | undefined, language: string): JsonNode | undefined {
  if (localizations === undefined) return undefined;
  const exact = member(localizations, language);
  if (exact !== undefined) return exact;
  const lower = language.toLowerCase();
  return localizations.members.find((m) => m.key.toLowerCase() === lower)?.value;
}

function named(keys: readonly string[]): string {
  const shown = keys.slice(0, NAMED).map((k) => JSON.stringify(clip(k, 61)));
  return `${shown.join(', ')}${keys.length > NAMED ? ` and ${keys.length - NAMED} more` : ''}`;
}

function parse(body: Uint8Array, language: string, plurals: string) {
  const text = decodeUtf8(body);
  const doc = readJson(text);
  const root = doc.root;
  if (root.kind !== 'object') throw new FormatError(['body'], `expected a String Catalog (a JSON object) at the top level, found ${jsonKind(root)}`);
  const sourceNode = member(root, 'sourceLanguage');
  if (sourceNode?.kind !== 'string') throw new FormatError(['body', 'sourceLanguage'], 'a String Catalog needs a "sourceLanguage" string');
  const strings = member(root, 'strings');
  if (strings?.kind !== 'object') {
    throw new FormatError(['body', 'strings'], `a String Catalog needs a "strings" object${strings === undefined ? '' : `, found ${jsonKind(strings)} (line ${doc.line(strings.offset)})`}`);
  }
  const isSource = sourceNode.value.toLowerCase() === language.toLowerCase();
  const entries: Entry[] = [];
  const warnings: string[] = [];
  const skippedControl: SkippedKey[] = [];
  const notTranslatable: string[] = [];
  let emptyKey = false;
  for (const m of strings.members) {
    const ctx: Ctx = { key: m.key, language: plurals, line: doc.line, warnings };
    const entry = object(m.value, ctx, [], "a key's entry");
    if (entry === undefined) continue;
    const comment = optionalString(member(entry, 'comment'), ctx, ['comment'], '"comment"');
    const localizations = object(member(entry, 'localizations'), ctx, ['localizations'], '"localizations"');
    const node = localizationOf(localizations, language);
    const shouldTranslate = member(entry, 'shouldTranslate');
    if (!isSource && shouldTranslate?.kind === 'boolean' && text.startsWith('false', shouldTranslate.offset)) {
      // The same text in every language (a brand, a URL): only the source language's is imported.
      if (node !== undefined) notTranslatable.push(m.key);
      continue;
    }
    let value: string | null;
    try {
      value = node === undefined ? null : localizationValue(node, ctx);
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      warnings.push(`${m.key}: ${error.message}; the key was skipped`);
      continue;
    }
    if (value === null) {
      // Not translated in this language; in the source language the key is its own text.
      if (!isSource) continue;
      value = m.key;
    }
    if (m.key === '') emptyKey = true;
    else if (hasControlCharacters(m.key)) skippedControl.push({ key: m.key, line: doc.line(m.offset) });
    else entries.push(makeEntry(m.key, value, ['body', 'strings', m.key], comment === '' ? undefined : comment));
  }
  if (emptyKey) warnings.push('the empty key ("") was skipped: tms keys have at least one character');
  warnings.push(...controlCharacterWarnings(skippedControl, 'key', 'keys'));
  if (notTranslatable.length) {
    const count = notTranslatable.length === 1 ? '1 key marked "shouldTranslate": false was' : `${notTranslatable.length} keys marked "shouldTranslate": false were`;
    warnings.push(`${count} skipped (only the source language's text of such a key is imported): ${named(notTranslatable)}`);
  }
  return { entries, warnings };
}


const unit = (value: string): CatalogObject => ({ stringUnit: { state: 'translated', value } });

/** A native plural as a `variations` object, or null when a selector has no catalog category or a form would read as a substitution. */
function variationsOf(native: NativePlural, language: string): CatalogObject | null {
  if (native.ordinal) return null;
  const forms: [string, CatalogObject][] = [];
  for (const selector of [...native.forms.keys()].sort(compareSelectors)) {
    const category = selectorToNative(selector, language, true);
    const text = native.forms.get(selector) ?? '';
    if (category === null || new RegExp(REFERENCE.source).test(text)) return null;
    forms.push([category, unit(text)]);
  }
  return { plural: Object.fromEntries(forms) };
}

/** printf conversions of a format (`%@`, `%2$lld`, `%#@name@`), `%%` aside. */
const CONVERSION = /%%|%(\d+\$)?(#@[^@]*@|[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|z|t|j)?[@dDiuUxXoOfFeEgGcCsSpaA])/g;

/** The argument number of each `%#@name@` of a format: its place among the format's conversions, as Xcode numbers them. */
function argumentNumbers(format: string): Map<string, number> {
  const numbers = new Map<string, number>();
  let next = 0;
  for (const m of format.matchAll(CONVERSION)) {
    if (m[0] === '%%') continue;
    const n = m[1] === undefined ? ++next : Number.parseInt(m[1], 10);
    if (m[2]?.startsWith('#@')) numbers.set(m[2].slice(2, -1), n);
  }
  return numbers;
}

/**
 * Text and plurals as a stringUnit format with substitutions, or null to write the value as it is.
 * Written only when what parse() rebuilds says the same as the value (it then comes back in the
 * canonical ICU spelling, as from .stringsdict).
 */
function substitutionsOf(value: string, language: string): CatalogObject | null {
  const parts = partsOf(value);
  if (parts === null) return null;
  let format = '';
  let rebuilt = '';
  const variables: [string, CatalogObject][] = [];
  for (const [i, part] of parts.entries()) {
    if ('literal' in part) {
      if (part.literal.includes('%#@')) return null;
      format += part.literal;
      rebuilt += escapeIcuLiteral(part.literal, false, i + 1 < parts.length ? '{' : undefined);
      continue;
    }
    const native = pluralToNative(part.source, SUBSTITUTION_DIALECT, null);
    if (native === null || !VAR_NAME.test(native.arg) || variables.some(([name]) => name === native.arg)) return null;
    const variations = variationsOf(native, language);
    if (variations === null) return null;
    format += `%#@${native.arg}@`;
    variables.push([native.arg, variations]);
    rebuilt += pluralToIcu(native, SUBSTITUTION_DIALECT);
  }
  const back = partsOf(rebuilt);
  if (!variables.length || back === null || !sameMessage(back, parts)) return null;
  const numbers = argumentNumbers(format);
  const substitutions = variables.map(([name, variations]): [string, CatalogObject] => [
    name,
    { argNum: numbers.get(name) ?? 1, formatSpecifier: FORMAT_SPECIFIER, variations },
  ]);
  return { ...unit(format), substitutions: Object.fromEntries(substitutions) };
}

/** A stored value as a catalog localization. */
function localizationOfValue(value: string, language: string): CatalogObject {
  if (value.includes('{')) {
    const whole = readIcuPlural(value) === null ? null : pluralToNative(value, PLURAL_DIALECT, 'count');
    const variations = whole === null ? null : variationsOf(whole, language);
    if (variations !== null) return { variations };
    const substituted = substitutionsOf(value, language);
    if (substituted !== null) return substituted;
  }
  return unit(value);
}

function serialize(entries: readonly Entry[], ctx: SerializeContext): CatalogObject {
  const plurals = ctx.plurals ?? ctx.language;
  const strings = sortedEntries(entries).map((e): [string, CatalogObject] => {
    const entry: CatalogObject = {};
    if (e.description) entry.comment = e.description;
    entry.extractionState = 'manual';
    entry.localizations = Object.fromEntries([[ctx.language, localizationOfValue(e.value, plurals)]]);
    return [e.key, entry];
  });
  return { sourceLanguage: ctx.sourceLanguage ?? ctx.source?.language ?? ctx.language, strings: Object.fromEntries(strings), version: '1.0' };
}

export const xcstringsCodec: FormatCodec = {
  id: 'xcstrings',
  extension: 'xcstrings',
  contentType: 'application/json; charset=utf-8',
  needsSource: false,
  // The catalog names the project's source language; its texts are not written, so none are read.
  namesSourceLanguage: true,
  pluralsOverCount: true,
  // Xcode's keys are mostly the source texts themselves (`Text("Delete file? This cannot be
  // undone.")`): split at the first '.', they would make a group of every sentence.
  keysAreText: true,
  parse: (body, ctx) => parse(body, ctx.language, ctx.language),
  serialize: (entries, ctx) => writeCatalog(serialize(entries, ctx)),
};
