// Rails I18n YAML: the root key is the locale, keys nest on '.'. A mapping whose keys are all plural
// categories (zero, one, two, few, many, other), including `other`, with string values, is a Rails
// plural: one ICU value at the mapping's key, `%{count}` as `#` and `%{name}` as `{name}` in its
// forms, and `zero` (Rails uses it for a count of 0) as `=0` unless the language has a zero
// category. On export, a group of ordinary keys that would read back as such a plural (`x.one`,
// `x.other`) is written with flat dotted names instead, as are keys that are both a leaf and a
// prefix (tree/nest-keys.ts).
//
// The file is read the way Ruby's Psych reads it (YAML 1.1): an unquoted yes, no, on, off, true,
// false, ~, null, number, date or :symbol is not a string, and is refused with a hint to quote it;
// export quotes such strings. Anchors, aliases and `<<` merge keys are followed.
import { Document, isAlias, isMap, isScalar, isSeq, LineCounter, Pair, parseDocument, Scalar, YAMLMap, type Node } from 'yaml';
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { isLeaf, nestKeys, type Branch } from '../tree/nest-keys.ts';
import { compareSelectors, isCategory } from '../plural/categories.ts';
import { pluralToIcu, pluralToNative } from '../plural/native-plural.ts';
import { RAILS_DIALECT } from '../plural/dialects.ts';
import { selectorFromNative, selectorToNative } from '../plural/selectors.ts';

/** Plain scalars Psych reads as something other than a string (over-approximated: quoting is harmless). */
const NOT_A_STRING = [
  /^(?:~|null)?$/i,
  /^(?:yes|no|true|false|on|off)$/i,
  /^[-+]?(?=[0-9.,_]*[0-9])[0-9.,_]*(?:e[-+]?[0-9]+)?$/i,
  /^[-+]?0(?:b[01_]+|x[0-9a-f_]+|o?[0-7_]+)$/i,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/,
  /^[-+]?\.(?:inf|nan)$/i,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?$/,
  /^:./,
];
const psychNonString = (s: string) => NOT_A_STRING.some((re) => re.test(s));

type Ctx = { lines: LineCounter; doc: Document.Parsed; entries: Entry[]; language: string };

const lineOf = (ctx: Ctx, node: Node | null | undefined) => ctx.lines.linePos(node?.range?.[0] ?? 0).line;

function resolve(ctx: Ctx, node: unknown): unknown {
  let n = node;
  for (let hops = 0; isAlias(n); hops++) {
    if (hops > 100) throw new FormatError(['body'], 'aliases nested too deeply');
    n = n.resolve(ctx.doc);
  }
  return n;
}

function scalarString(ctx: Ctx, node: unknown, path: string[]): string {
  const value = resolve(ctx, node);
  if (!isScalar(value)) {
    const what = isSeq(value) ? 'a list' : isMap(value) ? 'a mapping' : 'nothing';
    throw new FormatError(['body', ...path], `expected a string, found ${what} (line ${lineOf(ctx, value as Node)})`);
  }
  const text = String(value.value);
  if (value.type === 'PLAIN' && psychNonString(text)) {
    throw new FormatError(['body', ...path], `Rails reads ${text === '' ? 'an empty value' : `'${text}'`} as ${text === '' || /^(~|null)$/i.test(text) ? 'nil' : 'a non-string'}, not text; quote it (line ${lineOf(ctx, value)})`);
  }
  return text;
}

/** A mapping's pairs as names and value nodes, `<<` merges first and overridden by explicit keys. */
function pairsOf(ctx: Ctx, map: YAMLMap, path: string[]): [string, unknown, Node][] {
  const explicit: [string, unknown, Node][] = [];
  const merged: [string, unknown, Node][] = [];
  for (const pair of map.items) {
    const keyNode = pair.key;
    if (!isScalar(keyNode)) throw new FormatError(['body', ...path], `a key must be a plain name (line ${lineOf(ctx, keyNode as Node)})`);
    const name = String(keyNode.value);
    if (name === '<<' && keyNode.type === 'PLAIN') {
      const sources = resolve(ctx, pair.value);
      for (const source of isSeq(sources) ? sources.items : [sources]) {
        const target = resolve(ctx, source);
        if (!isMap(target)) throw new FormatError(['body', ...path], `<< must merge mappings (line ${lineOf(ctx, keyNode)})`);
        merged.push(...pairsOf(ctx, target, path));
      }
      continue;
    }
    explicit.push([name, pair.value, keyNode]);
  }
  const names = new Set(explicit.map(([n]) => n));
  return [...merged.filter(([n]) => !names.has(n)), ...explicit];
}

function pluralForms(ctx: Ctx, map: YAMLMap, path: string[]): Map<string, string> | null {
  const pairs = pairsOf(ctx, map, path);
  if (!pairs.some(([n]) => n === 'other') || !pairs.every(([n, v]) => isCategory(n) && isScalar(resolve(ctx, v)))) return null;
  const forms = new Map<string, string>();
  for (const [name, value] of pairs) forms.set(selectorFromNative(name, ctx.language, true), scalarString(ctx, value, [...path, name]));
  return forms;
}

function walk(ctx: Ctx, map: YAMLMap, path: string[], keyPath: string[]): void {
  for (const [name, valueNode] of pairsOf(ctx, map, path)) {
    const childPath = [...path, name];
    const childKey = [...keyPath, name];
    const value = resolve(ctx, valueNode);
    if (isMap(value)) {
      const forms = pluralForms(ctx, value, childPath);
      if (forms === null) walk(ctx, value, childPath, childKey);
      else ctx.entries.push(makeEntry(childKey.join('.'), pluralToIcu({ arg: 'count', ordinal: false, forms }, RAILS_DIALECT), ['body', ...childPath]));
    } else {
      ctx.entries.push(makeEntry(childKey.join('.'), scalarString(ctx, value, childPath), ['body', ...childPath]));
    }
  }
}

function parse(body: Uint8Array, language: string) {
  const text = decodeUtf8(body);
  const lines = new LineCounter();
  const doc = parseDocument(text, { schema: 'failsafe', uniqueKeys: true, prettyErrors: false, lineCounter: lines });
  const error = doc.errors[0];
  if (error) throw new FormatError(['body', 'line', error.linePos?.[0].line ?? 1], `invalid YAML: ${error.message.split('\n')[0]}`);
  const ctx: Ctx = { lines, doc, entries: [], language };
  const warnings: string[] = [];
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === '')) return { entries: [], warnings: ['the file is empty'] };
  if (!isMap(root)) throw new FormatError(['body'], 'expected a mapping with the locale as its key (de: ...)');
  const locales = pairsOf(ctx, root, []);
  const normalize = (s: string) => s.replaceAll('_', '-').toLowerCase();
  const chosen = locales.length === 1 ? locales[0] : locales.find(([name]) => normalize(name) === normalize(language));
  if (chosen === undefined) {
    throw new FormatError(['body'], `the file has the locales ${locales.map(([n]) => n).join(', ')}; none is ${language}`);
  }
  const [locale, value] = chosen;
  if (normalize(locale) !== normalize(language)) warnings.push(`the file's locale is ${locale}; its values were imported as ${language}`);
  const tree = resolve(ctx, value);
  if (!isMap(tree)) {
    if (isScalar(tree) && tree.value === '') return { entries: [], warnings };
    throw new FormatError(['body', locale], `expected a mapping under ${locale} (line ${lineOf(ctx, tree as Node)})`);
  }
  walk(ctx, tree, [locale], []);
  return { entries: ctx.entries, warnings };
}

type YamlLeaf = string | [string, string][];

function scalar(s: string): Scalar {
  const node = new Scalar(s);
  if (psychNonString(s)) node.type = 'QUOTE_DOUBLE';
  return node;
}

/** Nested branches that would read back as a plural are written as flat dotted names in their parent. */
function unplural(branch: Branch<YamlLeaf>): Branch<YamlLeaf> {
  const out: Branch<YamlLeaf> = new Map();
  for (const [name, node] of branch) {
    if (isLeaf(node)) {
      out.set(name, node);
      continue;
    }
    const child = unplural(node);
    const looksPlural = [...child].every(([n, c]) => isCategory(n) && isLeaf(c) && typeof c.leaf === 'string') && child.has('other');
    if (looksPlural) for (const [n, c] of child) out.set(`${name}.${n}`, c);
    else out.set(name, child);
  }
  return out;
}

function toYaml(branch: Branch<YamlLeaf>): YAMLMap {
  const map = new YAMLMap();
  for (const [name, node] of branch) {
    let value: Node;
    if (!isLeaf(node)) value = toYaml(node);
    else if (typeof node.leaf === 'string') value = scalar(node.leaf);
    else {
      const forms = new YAMLMap();
      for (const [category, text] of node.leaf) forms.items.push(new Pair(scalar(category), scalar(text)));
      value = forms;
    }
    map.items.push(new Pair(scalar(name), value));
  }
  return map;
}

function serialize(entries: readonly Entry[], language: string): string {
  const items: [string, YamlLeaf][] = sortedEntries(entries).map((e) => {
    const native = pluralToNative(e.value, RAILS_DIALECT, 'count');
    if (native === null || native.ordinal) return [e.key, e.value];
    const forms: [string, string][] = [];
    for (const selector of [...native.forms.keys()].sort(compareSelectors)) {
      const name = selectorToNative(selector, language, true);
      if (name === null) return [e.key, e.value];
      forms.push([name, native.forms.get(selector) ?? '']);
    }
    return [e.key, forms];
  });
  const tree = unplural(nestKeys(items));
  const doc = new Document(null, { version: '1.1' });
  const root = new YAMLMap();
  root.items.push(new Pair(scalar(language), toYaml(tree)));
  doc.contents = root;
  return doc.toString({ lineWidth: 0, minContentWidth: 0, indent: 2 });
}

export const yamlCodec: FormatCodec = {
  id: 'yaml',
  extension: 'yml',
  contentType: 'application/yaml; charset=utf-8',
  needsSource: false,
  parse: (body, ctx) => parse(body, ctx.language),
  serialize: (entries, ctx) => encodeText(serialize(entries, ctx.language)),
};
