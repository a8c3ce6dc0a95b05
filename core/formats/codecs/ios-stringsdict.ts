// Apple .stringsdict: a plist whose top-level keys are the keys. Each holds an
// NSStringLocalizedFormatKey such as `%#@files@`, and for each variable it names a dictionary with
// NSStringFormatSpecTypeKey = NSStringPluralRuleType, NSStringFormatValueTypeKey (the printf type
// of the count, `d` or `lld`; any integer conversion that is a form's only one counts too) and
// one string per plural category. That is an ICU plural over the variable
// (`{files, plural, one {# file} other {# files}}`), the variable's name kept as the
// argument; text around variables and several variables in one format are ICU text and plurals
// side by side. `zero` is the form for a count of 0 (`=0` in ICU) unless the language has a zero
// category. A value that is not plurals is written as a format string with no variables. Export
// writes the count as %lld (Swift's Int). The XML comment directly above a top-level <key> is the
// description. Positional (%1$#@x@) and nested variables are not supported: such keys are
// skipped with a warning.
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { elementsOf, readXml, textOf, type XmlElement } from '../xml/read-xml.ts';
import { assertXmlChars, escapeXmlText, xmlCommentText } from '../xml/escape-xml.ts';
import { compareSelectors, isCategory } from '../plural/categories.ts';
import { pluralToIcu, pluralToNative, type NativePlural } from '../plural/native-plural.ts';
import { printfDialect } from '../plural/dialects.ts';
import { selectorFromNative, selectorToNative } from '../plural/selectors.ts';
import { partsOf, sameMessage } from '../plural/message-parts.ts';
import { escapeIcuLiteral } from '../plural/icu-escape.ts';

const FORMAT_KEY = 'NSStringLocalizedFormatKey';
const SPEC_KEY = 'NSStringFormatSpecTypeKey';
const VALUE_TYPE_KEY = 'NSStringFormatValueTypeKey';
const PLURAL_RULE = 'NSStringPluralRuleType';
const EXPORT_VALUE_TYPE = 'lld';
const VARIABLE = /%(\d+\$)?#@([^@]*)@/g;
const VAR_NAME = /^[\p{L}\p{N}_]+$/u;
/**
 * Any integer conversion is the count in a form that has no other one: Xcode and translators write
 * `%lld`, `%ld` or `%d` whatever NSStringFormatValueTypeKey says, and often leave the key out.
 */
const INTEGER_COUNT = '%(?:ll|l)?[diu]';
const EXPORT_DIALECT = printfDialect(EXPORT_VALUE_TYPE, INTEGER_COUNT);

type DictItem = { key: string; value: XmlElement; comment: string | undefined; line: number };

/** A plist <dict> as its keys and values, with the comment directly above each <key> (not one trailing the previous value on its line). */
function readDict(dict: XmlElement): DictItem[] {
  const items: DictItem[] = [];
  let comment: string | undefined;
  let trailing = false;
  let key: { name: string; line: number; comment: string | undefined } | null = null;
  for (const child of dict.children) {
    if (child.kind === 'comment') comment = trailing ? undefined : child.text.trim() || undefined;
    else if (child.kind === 'text') {
      if (child.cdata || child.text.trim() !== '') throw new FormatError(['body', 'line', child.line], 'unexpected text inside <dict>');
      if (/\n[ \t]*\n/.test(child.text)) comment = undefined;
      if (child.text.includes('\n')) trailing = false;
    } else if (key === null) {
      if (child.name !== 'key') throw new FormatError(['body', 'line', child.line], `expected <key> in <dict>, found <${child.name}>`);
      key = { name: textOf(child), line: child.line, comment };
      comment = undefined;
    } else {
      if (child.name === 'key') throw new FormatError(['body', 'line', child.line], `<key>${key.name}</key> has no value`);
      items.push({ key: key.name, value: child, comment: key.comment, line: key.line });
      key = null;
      comment = undefined;
      trailing = true;
    }
  }
  if (key !== null) throw new FormatError(['body', 'line', key.line], `<key>${key.name}</key> has no value`);
  const seen = new Map<string, number>();
  for (const item of items) {
    const first = seen.get(item.key);
    if (first !== undefined) throw new FormatError(['body', 'line', item.line], `key '${item.key}' appears twice (lines ${first} and ${item.line})`);
    seen.set(item.key, item.line);
  }
  return items;
}

function stringValue(item: DictItem): string {
  if (item.value.name !== 'string') throw new FormatError(['body', 'line', item.value.line], `${item.key} must be a <string>, found <${item.value.name}>`);
  return textOf(item.value);
}

class Skip extends Error {}

function variable(name: string, items: Map<string, DictItem>, language: string, warnings: string[], key: string): string {
  const item = items.get(name);
  if (item === undefined) throw new Skip(`${key}: the variable ${name} has no dictionary`);
  const rules = new Map(readDict(item.value).map((i) => [i.key, i]));
  const spec = rules.get(SPEC_KEY);
  if (spec === undefined || stringValue(spec) !== PLURAL_RULE) throw new Skip(`${key}: the variable ${name} is not an ${PLURAL_RULE}`);
  if (!VAR_NAME.test(name)) throw new Skip(`${key}: the variable name ${name} cannot be an ICU argument name`);
  const valueType = rules.get(VALUE_TYPE_KEY);
  const forms = new Map<string, string>();
  for (const [category, rule] of rules) {
    if (category === SPEC_KEY || category === VALUE_TYPE_KEY) continue;
    if (!isCategory(category)) throw new FormatError(['body', 'line', rule.line], `${category} is not a plural category (zero, one, two, few, many, other)`);
    const text = stringValue(rule);
    if (new RegExp(VARIABLE.source).test(text)) throw new Skip(`${key}: nested variables are not supported`);
    forms.set(selectorFromNative(category, language, true), text);
  }
  if (!forms.has('other')) {
    const last = [...forms.keys()].sort(compareSelectors).at(-1);
    if (last === undefined) throw new FormatError(['body', 'line', item.line], `${key}: the variable ${name} has no plural forms`);
    forms.set('other', forms.get(last) ?? '');
    warnings.push(`${key}: the variable ${name} has no "other" form, so the "${last}" text was used for it`);
  }
  const native: NativePlural = { arg: name, ordinal: false, forms };
  return pluralToIcu(native, printfDialect(valueType === undefined ? 'd' : stringValue(valueType), INTEGER_COUNT));
}

function valueOf(item: DictItem, language: string, warnings: string[]): string {
  if (item.value.name === 'string') return textOf(item.value);
  if (item.value.name !== 'dict') throw new FormatError(['body', 'line', item.value.line], `${item.key} must be a <dict>, found <${item.value.name}>`);
  const items = new Map(readDict(item.value).map((i) => [i.key, i]));
  const formatItem = items.get(FORMAT_KEY);
  if (formatItem === undefined) throw new FormatError(['body', 'line', item.line], `${item.key} has no ${FORMAT_KEY}`);
  const format = stringValue(formatItem);
  const refs = [...format.matchAll(VARIABLE)];
  if (refs.some((r) => r[1] !== undefined)) throw new Skip(`${item.key}: positional variables (%1$#@name@) are not supported`);
  const missing = refs.map((r) => r[2] ?? '').filter((name) => items.get(name)?.value.name !== 'dict');
  if (missing.length) {
    // iOS would print such a reference as it is; so does the stored value.
    warnings.push(`${item.key}: the format names ${missing.map((m) => `%#@${m}@`).join(', ')} but has no dictionary for it, so it was imported as text`);
    return format;
  }
  let out = '';
  let last = 0;
  refs.forEach((ref, i) => {
    const literal = format.slice(last, ref.index);
    out += escapeIcuLiteral(literal, false, '{');
    out += variable(ref[2] ?? '', items, language, warnings, item.key);
    last = ref.index + ref[0].length;
    if (i === refs.length - 1) out += escapeIcuLiteral(format.slice(last), false);
  });
  return refs.length ? out : format;
}

function parse(body: Uint8Array, language: string) {
  const root = readXml(decodeUtf8(body));
  if (root.name !== 'plist') throw new FormatError(['body', 'line', root.line], `expected a <plist>, found <${root.name}>`);
  const dicts = elementsOf(root);
  const top = dicts[0];
  if (dicts.length !== 1 || top?.name !== 'dict') throw new FormatError(['body', 'line', root.line], '<plist> must hold one <dict>');
  const warnings: string[] = [];
  const entries: Entry[] = [];
  for (const item of readDict(top)) {
    try {
      entries.push(makeEntry(item.key, valueOf(item, language, warnings), ['body', 'line', item.line], item.comment));
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      warnings.push(`${error.message}; the key was skipped`);
    }
  }
  return { entries, warnings };
}

type Written = { format: string; variables: { name: string; forms: [string, string][] }[] };


/**
 * A value as a format string and plural variables, or null to write it as a plain format string.
 * A plural in any ICU spelling is written as variables when what parse() rebuilds from them says
 * the same as the value; it then comes back in the canonical spelling, as from every format with
 * plurals. (An exact comparison of spellings wrote Flutter's `one{# file}` and `{count}` for `#`
 * as a format string holding the ICU source, which iOS shows as it is.)
 */
function asVariables(value: string, language: string): Written | null {
  if (!value.includes('{')) return null;
  const parts = partsOf(value);
  if (parts === null) return null;
  const written: Written = { format: '', variables: [] };
  // What parse() will rebuild from the written file: literals escaped only where ICU needs it.
  let rebuilt = '';
  for (const [i, part] of parts.entries()) {
    if ('literal' in part) {
      if (new RegExp(VARIABLE.source).test(part.literal) || part.literal.includes('%#@')) return null;
      written.format += part.literal;
      rebuilt += escapeIcuLiteral(part.literal, false, i + 1 < parts.length ? '{' : undefined);
      continue;
    }
    const native = pluralToNative(part.source, EXPORT_DIALECT, null);
    if (native === null || native.ordinal || !VAR_NAME.test(native.arg) || native.arg === FORMAT_KEY || written.variables.some((v) => v.name === native.arg)) return null;
    const forms: [string, string][] = [];
    for (const selector of [...native.forms.keys()].sort(compareSelectors)) {
      const name = selectorToNative(selector, language, true);
      if (name === null) return null;
      forms.push([name, native.forms.get(selector) ?? '']);
    }
    written.format += `%#@${native.arg}@`;
    written.variables.push({ name: native.arg, forms });
    rebuilt += pluralToIcu(native, EXPORT_DIALECT);
  }
  const back = partsOf(rebuilt);
  return written.variables.length && back !== null && sameMessage(back, parts) ? written : null;
}

const string = (indent: string, s: string) => `${indent}<string>${escapeXmlText(s)}</string>`;
const key = (indent: string, s: string) => `${indent}<key>${escapeXmlText(s)}</key>`;

function serialize(entries: readonly Entry[], language: string): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
  ];
  for (const e of sortedEntries(entries)) {
    assertXmlChars(e.key, e.key, 'key');
    assertXmlChars(e.value, e.key);
    const comment = e.description ? xmlCommentText(e.description) : '';
    if (comment) lines.push(`\t<!-- ${comment} -->`);
    lines.push(key('\t', e.key), '\t<dict>', key('\t\t', FORMAT_KEY));
    const written = asVariables(e.value, language);
    if (written === null) {
      lines.push(string('\t\t', e.value), '\t</dict>');
      continue;
    }
    lines.push(string('\t\t', written.format));
    for (const v of written.variables) {
      lines.push(key('\t\t', v.name), '\t\t<dict>', key('\t\t\t', SPEC_KEY), string('\t\t\t', PLURAL_RULE), key('\t\t\t', VALUE_TYPE_KEY), string('\t\t\t', EXPORT_VALUE_TYPE));
      for (const [category, text] of v.forms) lines.push(key('\t\t\t', category), string('\t\t\t', text));
      lines.push('\t\t</dict>');
    }
    lines.push('\t</dict>');
  }
  lines.push('</dict>', '</plist>');
  return lines.join('\n');
}

export const iosStringsdictCodec: FormatCodec = {
  id: 'ios-stringsdict',
  extension: 'stringsdict',
  contentType: 'application/xml; charset=utf-8',
  needsSource: false,
  parse: (body, ctx) => parse(body, ctx.language),
  serialize: (entries, ctx) => encodeText(serialize(entries, ctx.plurals ?? ctx.language)),
};
