// Android resources (res/values-xx/strings.xml): <string name>, <plurals name> with <item
// quantity>, and <string-array name> whose items are the keys name[0], name[1], ... Text follows
// Android's escaping (android/android-text.ts). The comment directly above an element, with no
// blank line between, is its description (not one that trails the previous element on its line). translatable="false" strings, resource references
// (@string/x; a string-array or plurals with one as an item is skipped whole) and other resource
// types (dimen, color, integer-array...) are skipped with a warning. Plural items use `%d` (or
// `%1$d`, when it is the item's only integer conversion) for the count, `#` in the stored ICU value,
// and `%%` for a percent sign (plural/native-plural.ts, plural/dialects.ts).
//
// Product variants (`product="tablet"` beside `product="default"`) are one resource to aapt2, which
// keeps one of them per build: tms keeps one value per key, so the default variant (product
// "default", or none) is read and the others are skipped with a warning. As aapt2 does, a resource
// with variants but no default, or one product twice, is refused. Export writes formatted="false"
// where aapt2 needs it (android/java-format.ts), derived from the value.
//
// Keys must be Android resource names (letters, digits, _ and ., not starting with a digit), or
// name[i] for array items numbered from 0 without gaps; two names Android sees as one (a.b and
// a_b, both R.string.a_b) cannot both be written. Export refuses such keys with FormatError.
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError, throwAll } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { elementsOf, readXml, type XmlElement, type XmlNode } from '../xml/read-xml.ts';
import { readInline, splitInline } from '../xml/inline-markup.ts';
import { escapeXmlAttr, xmlCommentText } from '../xml/escape-xml.ts';
import { decodeAndroid, encodeAndroid } from '../android/android-text.ts';
import { needsFormattedFalse } from '../android/java-format.ts';
import { CATEGORY_ORDER, compareSelectors, isCategory } from '../plural/categories.ts';
import { pluralToIcu, pluralToNative } from '../plural/native-plural.ts';
import { ANDROID_DIALECT as DIALECT } from '../plural/dialects.ts';

const RESOURCE_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const ARRAY_ITEM = /^(.*)\[(0|[1-9][0-9]*)\]$/;

/** Each child element with the comment directly above it (no blank line between, not trailing the previous element). */
function withComments(parent: XmlElement): { element: XmlElement; comment: string | undefined }[] {
  const out: { element: XmlElement; comment: string | undefined }[] = [];
  let comment: string | undefined;
  let trailing = false;
  for (const child of parent.children as XmlNode[]) {
    if (child.kind === 'comment') comment = trailing ? undefined : child.text.trim() || undefined;
    else if (child.kind === 'text') {
      if (child.cdata || child.text.trim() !== '') throw new FormatError(['body', 'line', child.line], `unexpected text inside <${parent.name}>`);
      if (/\n[ \t]*\n/.test(child.text)) comment = undefined;
      if (child.text.includes('\n')) trailing = false;
    } else {
      out.push({ element: child, comment });
      comment = undefined;
      trailing = true;
    }
  }
  return out;
}

type Reader = {
  entries: Entry[];
  warnings: string[];
  seen: Map<string, number>;
  counts: Map<string, number>;
  other: Set<string>;
  untranslatable: string[];
  references: string[];
  /** Non-default product variants by resource (`kind:name`), with the line of each product. */
  variants: Map<string, Map<string, number>>;
};

/** The product an element is a variant for: '' for the default (product="default", or none). */
const productOf = (el: XmlElement) => {
  const product = el.attrs.get('product') ?? '';
  return product === 'default' ? '' : product;
};
const resourceId = (el: XmlElement, name: string) => `${el.name}:${name}`;

/**
 * False for a variant other than the default, which is recorded to be skipped. One product twice
 * for a resource is refused, as aapt2 refuses it (a default twice is a key twice, below).
 */
function isDefaultVariant(r: Reader, el: XmlElement, name: string): boolean {
  const product = productOf(el);
  if (product === '') return true;
  const id = resourceId(el, name);
  let lines = r.variants.get(id);
  if (!lines) r.variants.set(id, (lines = new Map()));
  const first = lines.get(product);
  if (first !== undefined) throw new FormatError(['body', 'line', el.line], `${name} appears twice with product="${product}" (lines ${first} and ${el.line})`);
  lines.set(product, el.line);
  return false;
}

/** aapt2 keeps the default of a resource's variants: one without a default is refused. */
function checkVariants(r: Reader, root: XmlElement): void {
  if (r.variants.size === 0) return;
  const defaults = new Set(elementsOf(root).flatMap((el) => (productOf(el) === '' && el.attrs.has('name') ? [resourceId(el, el.attrs.get('name') ?? '')] : [])));
  const skipped: string[] = [];
  for (const [id, lines] of r.variants) {
    const name = id.slice(id.indexOf(':') + 1);
    const [line] = [...lines.values()];
    if (!defaults.has(id)) throw new FormatError(['body', 'line', line ?? 1], `${name} has product variants but no default (product="default" or none); aapt2 refuses it too`);
    for (const product of lines.keys()) skipped.push(`${name} (${product})`);
  }
  r.warnings.push(`product variants other than the default were skipped (tms keeps one value per key): ${skipped.join(', ')}`);
}

function add(r: Reader, key: string, value: string, el: XmlElement, loc: (string | number)[], description: string | undefined): void {
  const first = r.seen.get(key);
  if (first !== undefined) throw new FormatError(['body', 'line', el.line], `${key} appears twice (lines ${first} and ${el.line})`);
  r.seen.set(key, el.line);
  r.entries.push(makeEntry(key, value, loc, description));
}

function nameOf(el: XmlElement): string {
  const name = el.attrs.get('name');
  if (name === undefined || name === '') throw new FormatError(['body', 'line', el.line], `<${el.name}> has no name`);
  return name;
}

function readPlurals(r: Reader, el: XmlElement, loc: (string | number)[], description: string | undefined): void {
  const name = nameOf(el);
  const forms = new Map<string, string>();
  let reference = false;
  for (const { element: item } of withComments(el)) {
    if (item.name !== 'item') throw new FormatError(['body', 'line', item.line], `<plurals> may hold only <item>, found <${item.name}>`);
    const quantity = item.attrs.get('quantity') ?? '';
    if (!isCategory(quantity)) throw new FormatError(['body', 'line', item.line], `quantity must be one of ${CATEGORY_ORDER.join(', ')}, found '${quantity}'`);
    if (forms.has(quantity)) throw new FormatError(['body', 'line', item.line], `quantity ${quantity} appears twice in ${name}`);
    const text = decodeAndroid(readInline(item));
    reference ||= text.reference;
    forms.set(quantity, text.value);
  }
  // An item that is a reference (@string/x) would come back as its literal text: tms can store
  // neither it nor the plural without it, so the plural is skipped, as a <string> reference is.
  if (reference) {
    r.references.push(name);
    return;
  }
  if (forms.size === 0) throw new FormatError(['body', 'line', el.line], `<plurals name="${name}"> has no <item>`);
  if (!forms.has('other')) {
    // ICU needs `other`; the most general form the file has stands in for it.
    const last = [...forms.keys()].sort(compareSelectors).at(-1) ?? 'one';
    forms.set('other', forms.get(last) ?? '');
    r.warnings.push(`${name}: no quantity="other", so the "${last}" text was used for it`);
  }
  add(r, name, pluralToIcu({ arg: 'count', ordinal: false, forms }, DIALECT), el, loc, description);
}

function parse(body: Uint8Array) {
  const root = readXml(decodeUtf8(body));
  if (root.name !== 'resources') throw new FormatError(['body', 'line', root.line], `expected <resources>, found <${root.name}>`);
  const r: Reader = { entries: [], warnings: [], seen: new Map(), counts: new Map(), other: new Set(), untranslatable: [], references: [], variants: new Map() };
  for (const { element: el, comment } of withComments(root)) {
    const index = r.counts.get(el.name) ?? 0;
    r.counts.set(el.name, index + 1);
    const loc = ['body', 'resources', el.name, index];
    if (el.name !== 'string' && el.name !== 'plurals' && el.name !== 'string-array') {
      if (el.name !== 'eat-comment') r.other.add(el.name);
      continue;
    }
    if (!isDefaultVariant(r, el, nameOf(el))) continue;
    if (el.attrs.get('translatable') === 'false') {
      r.untranslatable.push(nameOf(el));
      continue;
    }
    if (el.name === 'plurals') readPlurals(r, el, loc, comment);
    else if (el.name === 'string') {
      const name = nameOf(el);
      const { value, reference } = decodeAndroid(readInline(el));
      if (reference) r.references.push(name);
      else add(r, name, value, el, loc, comment);
    } else {
      const name = nameOf(el);
      const items = withComments(el).map(({ element: item, comment: itemComment }) => {
        if (item.name !== 'item') throw new FormatError(['body', 'line', item.line], `<string-array> may hold only <item>, found <${item.name}>`);
        return { item, comment: itemComment, text: decodeAndroid(readInline(item)) };
      });
      // The array is skipped whole when an item is a reference: without that item, the items
      // after it would move up a place.
      if (items.some((i) => i.text.reference)) r.references.push(name);
      else items.forEach(({ item, comment: itemComment, text }, i) => add(r, `${name}[${i}]`, text.value, item, [...loc, 'item', i], itemComment ?? comment));
    }
  }
  checkVariants(r, root);
  if (r.untranslatable.length) r.warnings.push(`translatable="false" resources were skipped: ${r.untranslatable.join(', ')}`);
  if (r.references.length) r.warnings.push(`resource references (@... or ?...) are not translations and were skipped: ${r.references.join(', ')}`);
  if (r.other.size) r.warnings.push(`resources other than string, plurals and string-array were skipped: ${[...r.other].join(', ')}`);
  return { entries: r.entries, warnings: r.warnings };
}

type Resource =
  | { kind: 'string'; name: string; entry: Entry }
  | { kind: 'plurals'; name: string; entry: Entry; forms: [string, string][] }
  | { kind: 'string-array'; name: string; items: Entry[] };

const invalidName = (key: string) =>
  new FormatError(['body', key], `'${key}' is not a valid Android resource name (letters, digits, _ and ., not starting with a digit; name[0], name[1]... for array items)`);

function resources(entries: readonly Entry[]): Resource[] {
  const out: Resource[] = [];
  const arrays = new Map<string, Map<number, Entry>>();
  // Names Android refuses are collected, so that one refusal lists every key to rename.
  const refused: FormatError[] = [];
  for (const entry of sortedEntries(entries)) {
    const item = ARRAY_ITEM.exec(entry.key);
    if (item) {
      const name = item[1] ?? '';
      if (!RESOURCE_NAME.test(name)) {
        refused.push(invalidName(entry.key));
        continue;
      }
      let array = arrays.get(name);
      if (!array) {
        arrays.set(name, (array = new Map()));
        out.push({ kind: 'string-array', name, items: [] });
      }
      array.set(Number(item[2]), entry);
      continue;
    }
    if (!RESOURCE_NAME.test(entry.key)) {
      refused.push(invalidName(entry.key));
      continue;
    }
    const native = pluralToNative(entry.value, DIALECT, 'count');
    if (native && !native.ordinal && [...native.forms.keys()].every(isCategory)) {
      const forms = [...native.forms].sort((a, b) => compareSelectors(a[0], b[0]));
      out.push({ kind: 'plurals', name: entry.key, entry, forms });
    } else out.push({ kind: 'string', name: entry.key, entry });
  }
  throwAll(refused);
  for (const resource of out) {
    if (resource.kind !== 'string-array') continue;
    const items = arrays.get(resource.name) ?? new Map<number, Entry>();
    for (let i = 0; i < items.size; i++) {
      const entry = items.get(i);
      if (!entry) {
        const key = [...items.values()].map((e) => e.key).find((k) => Number(ARRAY_ITEM.exec(k)?.[2]) > i) ?? resource.name;
        throw new FormatError(['body', key], `the items of string-array ${resource.name} must be numbered from 0 without gaps; ${resource.name}[${i}] is missing`);
      }
      resource.items.push(entry);
    }
  }
  // Android turns '.' into '_' for R fields: a.b and a_b are one resource of a type.
  const byField = new Map<string, string>();
  for (const resource of out) {
    const field = `${resource.kind === 'string-array' ? 'array' : resource.kind}:${resource.name.replaceAll('.', '_')}`;
    const other = byField.get(field);
    if (other !== undefined) {
      throw new FormatError(['body', resource.kind === 'string-array' ? `${resource.name}[0]` : resource.name], `${other} and ${resource.name} are the same resource to Android (both R.${field.replace(':', '.')})`);
    }
    byField.set(field, resource.name);
  }
  return out;
}

/** A value's text without its inline markup: what aapt2 checks as a format string. */
const plainText = (value: string) => splitInline(value).map((p) => ('text' in p ? p.text : '')).join('');

function comment(description: string | null | undefined, indent: string): string[] {
  const text = description ? xmlCommentText(description) : '';
  return text ? [`${indent}<!-- ${text} -->`] : [];
}

function serialize(entries: readonly Entry[]): string {
  const list = resources(entries);
  const needsXliff = entries.some((e) => e.value.includes('<xliff:'));
  const lines = ['<?xml version="1.0" encoding="utf-8"?>', needsXliff ? '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">' : '<resources>'];
  for (const resource of list) {
    const name = escapeXmlAttr(resource.name);
    if (resource.kind === 'string') {
      const formatted = needsFormattedFalse(plainText(resource.entry.value)) ? ' formatted="false"' : '';
      lines.push(...comment(resource.entry.description, '    '), `    <string name="${name}"${formatted}>${encodeAndroid(resource.entry.value)}</string>`);
    } else if (resource.kind === 'plurals') {
      lines.push(...comment(resource.entry.description, '    '), `    <plurals name="${name}">`);
      for (const [quantity, text] of resource.forms) lines.push(`        <item quantity="${quantity}">${encodeAndroid(text)}</item>`);
      lines.push('    </plurals>');
    } else {
      lines.push(`    <string-array name="${name}">`);
      for (const item of resource.items) lines.push(...comment(item.description, '        '), `        <item>${encodeAndroid(item.value)}</item>`);
      lines.push('    </string-array>');
    }
  }
  lines.push('</resources>');
  return lines.join('\n');
}

export const androidCodec: FormatCodec = {
  pluralsOverCount: true,
  id: 'android',
  extension: 'xml',
  contentType: 'application/xml; charset=utf-8',
  needsSource: false,
  parse: (body) => parse(body),
  serialize: (entries) => encodeText(serialize(entries)),
};
