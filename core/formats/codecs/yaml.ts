// Rails I18n YAML: the root key is the locale, keys nest on '.'. A mapping whose keys are all plural
// categories (zero, one, two, few, many, other), including `other`, with string values, is a Rails
// plural: one ICU value at the mapping's key, `%{count}` as `#` and `%{name}` as `{name}` in its
// forms, and `zero` (Rails uses it for a count of 0) as `=0` unless the language has a zero
// category. Export writes every category of the language (those the value leaves to `other` with
// its text: plural/every-category.ts); import keeps every form.
// On export, a group of ordinary keys that would read back as such a plural (`x.one`, `x.other`) is
// written with flat dotted names instead, as are keys that are both a leaf and a prefix
// (tree/nest-keys.ts).
//
// The file is read the way Ruby's Psych reads it (YAML 1.1): an unquoted yes, no, on, off, true,
// false, ~, null, empty value, number, date or :symbol is not a string, and neither is a list
// (rails-i18n's date.day_names, number.format.precision: 3). Those are not translations: they are
// skipped with a warning that names them (quoting a value makes it text), and the rest of the file
// is imported, as Android's codec does with <integer>. Export quotes strings Psych would misread,
// and a key `<<`, which would read back as a merge key. A key twice in one mapping is refused with
// both lines named.
//
// Anchors, aliases and `<<` merge keys are followed, within bounds, because a few bytes of aliases
// can stand for billions of keys: expanding them may visit at most one mapping pair per byte of the
// file (at least 100,000), and an alias to a mapping that contains it is refused. The yaml
// library's own duplicate-key check and alias lookup scan a whole mapping or document each time
// (quadratic on a 10 MiB file), so both are done here in one pass.
import { Composer, CST, Document, isAlias, isMap, isScalar, isSeq, LineCounter, Pair, Parser, Scalar, visit, YAMLMap, YAMLParseError, type Alias, type Node } from 'yaml';
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { clip } from '../text/clip.ts';
import { isLeaf, nestKeys, type Branch } from '../tree/nest-keys.ts';
import { compareSelectors, isCategory } from '../plural/categories.ts';
import { pluralToIcu, pluralToNative } from '../plural/native-plural.ts';
import { RAILS_DIALECT } from '../plural/dialects.ts';
import { selectorFromNative, selectorToNative } from '../plural/selectors.ts';
import { withEveryCategory } from '../plural/every-category.ts';

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

/** Deeper nesting is refused, as in the JSON formats, rather than left to overflow the stack (512 holds the deepest valid key, see json/read-json.ts). */
const MAX_DEPTH = 512;

type Ctx = {
  lines: LineCounter;
  entries: Entry[];
  /** Keys whose values Rails does not read as text, with what it reads: `date.day_names (a list)`. */
  skipped: string[];
  language: string;
  /** What each alias stands for: the node that last took its anchor before it, in document order. */
  anchors: Map<Alias, Node | undefined>;
  /** Mapping pairs that may still be visited (aliases repeat them). */
  budget: number;
  /** Mappings being walked or merged, to refuse an alias to an enclosing mapping. */
  open: Set<YAMLMap>;
};

const lineOf = (ctx: Ctx, node: Node | null | undefined) => ctx.lines.linePos(node?.range?.[0] ?? 0).line;

/** Every alias's target in one pass (YAML: an alias refers to the closest preceding anchor). */
function anchorTable(doc: Document.Parsed): Map<Alias, Node | undefined> {
  const latest = new Map<string, Node>();
  const table = new Map<Alias, Node | undefined>();
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) table.set(node, latest.get(node.source));
      else if (node.anchor) latest.set(node.anchor, node);
    },
  });
  return table;
}

function resolve(ctx: Ctx, node: unknown): unknown {
  if (!isAlias(node)) return node;
  const target = ctx.anchors.get(node);
  if (target === undefined) throw new FormatError(['body', 'line', lineOf(ctx, node)], `invalid YAML: the alias *${node.source} has no anchor &${node.source} before it`);
  return target;
}

/** Refuses a mapping an alias leads back into while it is being read (it would never end). */
function enter(ctx: Ctx, map: YAMLMap, path: string[]): void {
  if (ctx.open.has(map)) throw new FormatError(['body', ...path], `an alias refers to a mapping that contains it (line ${lineOf(ctx, map)})`);
  ctx.open.add(map);
}

/** The text of a value, or what Rails reads instead (`a list`, `nil`, `true`) when that is not text. */
function scalarText(value: unknown): { text: string } | { not: string } {
  if (isSeq(value)) return { not: 'a list' };
  if (!isScalar(value)) return { not: 'nil' };
  const text = String(value.value);
  if (value.type !== 'PLAIN' || !psychNonString(text)) return { text };
  return { not: text === '' || /^(~|null)$/i.test(text) ? 'nil' : clip(text, 41) };
}

/** A mapping's pairs as names and value nodes, `<<` merges first and overridden by explicit keys. */
function pairsOf(ctx: Ctx, map: YAMLMap, path: string[]): [string, unknown, Node][] {
  ctx.budget -= map.items.length;
  if (ctx.budget < 0) throw new FormatError(['body', ...path], `aliases expand to more keys than the file could hold written out (line ${lineOf(ctx, map)})`);
  enter(ctx, map, path);
  const explicit = new Map<string, [string, unknown, Node]>();
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
    const first = explicit.get(name);
    if (first !== undefined) {
      throw new FormatError(['body', 'line', lineOf(ctx, keyNode)], `the key ${[...path, name].join('.')} appears twice (lines ${lineOf(ctx, first[2])} and ${lineOf(ctx, keyNode)})`);
    }
    explicit.set(name, [name, pair.value, keyNode]);
  }
  ctx.open.delete(map);
  return [...merged.filter(([n]) => !explicit.has(n)), ...explicit.values()];
}

/** A Rails plural (category keys including other, text values), or null. */
function pluralForms(ctx: Ctx, map: YAMLMap, path: string[]): Map<string, string> | null {
  const pairs = pairsOf(ctx, map, path);
  if (!pairs.some(([n]) => n === 'other')) return null;
  const forms = new Map<string, string>();
  for (const [name, value] of pairs) {
    const read = scalarText(resolve(ctx, value));
    if (!isCategory(name) || !('text' in read)) return null;
    forms.set(selectorFromNative(name, ctx.language, true), read.text);
  }
  return forms;
}

function walk(ctx: Ctx, map: YAMLMap, path: string[], keyPath: string[]): void {
  if (path.length > MAX_DEPTH) throw new FormatError(['body', 'line', lineOf(ctx, map)], `invalid YAML: mappings nested more than ${MAX_DEPTH} levels deep`);
  const pairs = pairsOf(ctx, map, path);
  enter(ctx, map, path);
  for (const [name, valueNode] of pairs) {
    const childPath = [...path, name];
    const childKey = [...keyPath, name];
    const value = resolve(ctx, valueNode);
    if (isMap(value)) {
      const forms = pluralForms(ctx, value, childPath);
      if (forms === null) walk(ctx, value, childPath, childKey);
      else ctx.entries.push(makeEntry(childKey.join('.'), pluralToIcu({ arg: 'count', ordinal: false, forms }, RAILS_DIALECT), ['body', ...childPath]));
    } else {
      const read = scalarText(value);
      if ('text' in read) ctx.entries.push(makeEntry(childKey.join('.'), read.text, ['body', ...childPath]));
      else ctx.skipped.push(`${childKey.join('.')} (${read.not})`);
    }
  }
  ctx.open.delete(map);
}

/**
 * parseDocument() in two steps, with the nesting checked in between. The library's parser keeps its
 * own stack, but its composer recurses once per level: left to overflow the call stack (as it did
 * on about 1,200 nested `[`, or `- - - …` on one line), the overflow could land inside V8's regular
 * expression compiler, which ends the whole process ("RegExpCompiler Allocation failed") instead of
 * throwing: two imports of a 100 KB file stopped the server. So the syntax tree's depth is measured
 * without recursion first, and a file deeper than MAX_DEPTH is refused before it is composed.
 */
function readDocument(text: string, lines: LineCounter): Document.Parsed {
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  const deep = deepestToken(tokens, MAX_DEPTH + 2);
  if (deep !== undefined) throw new FormatError(['body', 'line', lines.linePos(deep).line], `invalid YAML: nested more than ${MAX_DEPTH} levels deep`);
  // uniqueKeys: false because the library's check compares each key with every earlier one;
  // pairsOf() refuses duplicates with a Map instead.
  const composer = new Composer({ schema: 'failsafe', uniqueKeys: false, prettyErrors: false });
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens, true, text.length)) {
    if (!doc) doc = next;
    else {
      doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'));
      break;
    }
  }
  return doc!;
}

/** The offset of a collection nested deeper than `limit` in the syntax tree, walked without recursion. */
function deepestToken(tokens: CST.Token[], limit: number): number | undefined {
  const stack: [CST.Token, number][] = tokens.map((t) => [t, 0]);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [token, depth] = next;
    if (token.type === 'document') {
      if (token.value) stack.push([token.value, depth]);
    } else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth >= limit) return token.offset;
      for (const item of token.items) {
        if ('key' in item && item.key) stack.push([item.key, depth + 1]);
        if (item.value) stack.push([item.value, depth + 1]);
      }
    }
  }
  return undefined;
}

function parse(body: Uint8Array, language: string) {
  const text = decodeUtf8(body);
  const lines = new LineCounter();
  const doc = readDocument(text, lines);
  const error = doc.errors[0];
  if (error) {
    // The library reports its own stack overflow on deep nesting as a parse error, and several
    // documents with advice about its own API: both are said in the file's terms instead.
    const message = /call stack/i.test(error.message)
      ? `nested more than the parser can follow`
      : error.code === 'MULTIPLE_DOCS'
        ? 'the file must hold one YAML document, and a second one (---) starts here'
        : error.message.split('\n')[0];
    // linePos is only filled in with prettyErrors; the offset is always there.
    throw new FormatError(['body', 'line', lines.linePos(error.pos[0]).line], `invalid YAML: ${message}`);
  }
  const ctx: Ctx = { lines, entries: [], skipped: [], language, anchors: anchorTable(doc), budget: Math.max(100_000, text.length), open: new Set() };
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
  if (ctx.skipped.length) {
    const [shown, more] = [ctx.skipped.slice(0, 10), ctx.skipped.length - 10];
    warnings.push(`values Rails does not read as text were skipped (quote one to import it as text): ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`);
  }
  return { entries: ctx.entries, warnings };
}

type YamlLeaf = string | [string, string][];

function scalar(s: string): Scalar {
  const node = new Scalar(s);
  // Whitespace-only text over lines, such as " \n", the library writes as a block scalar (`|+`) with
  // no indentation indicator; a reader then takes the longest line's spaces as the indentation and
  // the spaces are lost. Quoted, every character stays.
  if (psychNonString(s) || s === '<<' || /^[\t \n]*\n[\t \n]*$/.test(s)) node.type = 'QUOTE_DOUBLE';
  // The library's YAML 1.1 schema writes the string << as its merge key, unquoted whatever the
  // type says; the explicit tag makes it `!!str "<<"`, which every YAML 1.1 reader takes as text.
  if (s === '<<') node.tag = 'tag:yaml.org,2002:str';
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

function serialize(entries: readonly Entry[], language: string, pluralLanguage = language): string {
  const items: [string, YamlLeaf][] = sortedEntries(entries).map((e) => {
    const native = pluralToNative(e.value, RAILS_DIALECT, 'count');
    if (native === null || native.ordinal) return [e.key, e.value];
    // Every category of the language: the i18n gem before 1.13 raises for a count whose category
    // is missing instead of using `other`.
    const all = withEveryCategory(native.forms, pluralLanguage, false);
    const forms: [string, string][] = [];
    for (const selector of [...all.keys()].sort(compareSelectors)) {
      const name = selectorToNative(selector, pluralLanguage, true);
      if (name === null) return [e.key, e.value];
      forms.push([name, all.get(selector) ?? '']);
    }
    return [e.key, forms];
  });
  const tree = unplural(nestKeys(items));
  const doc = new Document(null, { version: '1.1' });
  const root = new YAMLMap();
  root.items.push(new Pair(scalar(language), toYaml(tree)));
  doc.contents = root;
  // A double-quoted string stays on one line: from 40 characters the library (2.9) writes one over
  // lines, and there it escapes a lone space between two line breaks twice ("\n \n" came back as
  // "\n\\ \n"). One line of escapes is as valid to Psych and lossless.
  return doc.toString({ lineWidth: 0, minContentWidth: 0, indent: 2, doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY });
}

export const yamlCodec: FormatCodec = {
  pluralsOverCount: true,
  id: 'yaml',
  extension: 'yml',
  contentType: 'application/yaml; charset=utf-8',
  needsSource: false,
  parse: (body, ctx) => parse(body, ctx.language),
  serialize: (entries, ctx) => encodeText(serialize(entries, ctx.language, ctx.plurals)),
};
