// i18next JSON v4: nested on '.', plurals as sibling keys with CLDR suffixes (`files_one`,
// `files_other`, and `place_ordinal_one` for ordinals). Suffixed siblings that include `_other` and
// whose base key does not exist on its own collapse into one ICU value at the base key; forms use
// i18next's `{{count}}` for the count and `{{name}}` for other arguments, and ICU's `#` and `{name}`
// once stored. `_zero` is i18next's form for a count of 0, so it is `=0` in ICU unless the
// language has a `zero` category. Export writes every category of the language, those the value
// leaves to `other` with its text (plural/every-category.ts); import keeps every form.
// Stored keys named like such a set (`items_one`, `items_other`, no key `items`) would read back as
// one plural: export refuses them with a FormatError naming each (a 422), as docs/formats.md says.
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError, throwAll } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { readJson } from '../json/read-json.ts';
import { flattenJson, type FlatLeaf } from '../json/flatten-json.ts';
import { nestedJsonText } from '../json/nested-json-text.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { CATEGORY_ORDER, compareSelectors } from '../plural/categories.ts';
import { pluralToIcu, pluralToNative } from '../plural/native-plural.ts';
import { I18NEXT_DIALECT } from '../plural/dialects.ts';
import { selectorFromNative, selectorToNative } from '../plural/selectors.ts';
import { withEveryCategory } from '../plural/every-category.ts';

const SUFFIX = new RegExp(`^(.+?)_(ordinal_)?(${CATEGORY_ORDER.join('|')})$`);

type Group<T> = { base: string; ordinal: boolean; forms: Map<string, T> };

/**
 * The suffixed keys a reader takes as plurals: sibling keys with CLDR suffixes that include `_other`
 * and whose base key is not a key of its own (cardinal groups first, so an ordinal group at a base
 * a cardinal one took stays apart). The other suffixed groups are keys one by one, with a warning.
 * Shared by parse and serialize, so that export refuses exactly the stored keys this would merge.
 */
function pluralGroups<T extends { key: string }>(leaves: readonly T[]): { plurals: Group<T>[]; warnings: string[] } {
  const keys = new Set(leaves.map((l) => l.key));
  const groups = new Map<string, Group<T>>();
  for (const leaf of leaves) {
    const m = SUFFIX.exec(leaf.key);
    if (!m) continue;
    const id = `${m[2] ? 'o' : 'c'}:${m[1]}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { base: m[1] ?? '', ordinal: Boolean(m[2]), forms: new Map() }));
    group.forms.set(m[3] ?? '', leaf);
  }
  const warnings: string[] = [];
  const plurals: Group<T>[] = [];
  const bases = new Set<string>();
  for (const group of [...groups.values()].sort((a, b) => Number(a.ordinal) - Number(b.ordinal))) {
    const what = `${group.base}_${group.ordinal ? 'ordinal_' : ''}*`;
    if (!group.forms.has('other')) {
      warnings.push(`${what}: no _${group.ordinal ? 'ordinal_' : ''}other form, so the keys were imported one by one, not as a plural`);
    } else if (keys.has(group.base) || bases.has(group.base)) {
      warnings.push(`${what}: the key ${group.base} also exists, so the suffixed keys were imported one by one, not as a plural`);
    } else {
      bases.add(group.base);
      plurals.push(group);
    }
  }
  return { plurals, warnings };
}

function parse(leaves: FlatLeaf[], language: string): { entries: Entry[]; warnings: string[] } {
  const { plurals, warnings } = pluralGroups(leaves);
  const collapsed = new Map<FlatLeaf, Group<FlatLeaf>>();
  for (const group of plurals) for (const leaf of group.forms.values()) collapsed.set(leaf, group);
  const entries: Entry[] = [];
  for (const leaf of leaves) {
    const group = collapsed.get(leaf);
    if (!group) {
      entries.push(makeEntry(leaf.key, leaf.value, ['body', ...leaf.path]));
      continue;
    }
    // The plural is emitted once, where its first form appears in the file.
    if ([...group.forms.values()][0] !== leaf) continue;
    const forms = new Map<string, string>();
    for (const [name, form] of group.forms) forms.set(selectorFromNative(name, language, !group.ordinal), form.value);
    const value = pluralToIcu({ arg: 'count', ordinal: group.ordinal, forms }, I18NEXT_DIALECT);
    entries.push(makeEntry(group.base, value, ['body', ...leaf.path]));
  }
  return { entries, warnings };
}

/**
 * The suffixed keys a plural value expands to, or null to write it as an ordinary string. Every
 * category of the language gets a key: i18next does not fall back to `_other` (it shows the key
 * name for a count whose `_few` is missing), so categories the value leaves to `other` repeat it.
 */
function expand(entry: Entry, language: string): [string, string][] | null {
  const native = pluralToNative(entry.value, I18NEXT_DIALECT, 'count');
  if (native === null) return null;
  const forms = withEveryCategory(native.forms, language, native.ordinal);
  const out: [string, string][] = [];
  for (const selector of [...forms.keys()].sort(compareSelectors)) {
    const name = selectorToNative(selector, language, !native.ordinal);
    if (name === null) return null;
    out.push([`${entry.key}_${native.ordinal ? 'ordinal_' : ''}${name}`, forms.get(selector) ?? '']);
  }
  return out;
}

function serialize(entries: readonly Entry[], language: string): string {
  const sorted = sortedEntries(entries);
  const keys = new Set(sorted.map((e) => e.key));
  const expansions = new Map<Entry, [string, string][]>();
  const produced = new Map<string, number>();
  for (const entry of sorted) {
    const keysOut = expand(entry, language);
    if (keysOut === null) continue;
    expansions.set(entry, keysOut);
    for (const [k] of keysOut) produced.set(k, (produced.get(k) ?? 0) + 1);
  }
  // A plural is written as suffixed keys only if they are all new and no other key would join its
  // group on reading back (a plain `files_few` beside the plural `files`), else it stays ICU text.
  // So does one whose keys would read back under another base (a cardinal plural at `x_ordinal`).
  const suffixBases = new Set(sorted.map((e) => SUFFIX.exec(e.key)?.[1]));
  const ownsGroup = (entry: Entry, keysOut: [string, string][]) =>
    !suffixBases.has(entry.key) &&
    keysOut.every(([k]) => {
      const m = SUFFIX.exec(k);
      return !keys.has(k) && produced.get(k) === 1 && m?.[1] === entry.key && Boolean(m[2]) === k.startsWith(`${entry.key}_ordinal_`);
    });
  // `expanded`: the item is a form of a plural value, not a stored key written as it is.
  const items: { key: string; value: string; expanded: boolean }[] = [];
  for (const entry of sorted) {
    const keysOut = expansions.get(entry);
    if (keysOut && ownsGroup(entry, keysOut)) items.push(...keysOut.map(([key, value]) => ({ key, value, expanded: true })));
    else items.push({ key: entry.key, value: entry.value, expanded: false });
  }
  refuseMergedKeys(items);
  items.sort((a, b) => byCodeUnits(a.key, b.key));
  return nestedJsonText(items.map((i) => [i.key, i.value] as const));
}

/**
 * Stored keys named like plural forms (`items_one`, `items_other`, and no key `items`) would read
 * back as one plural key `items`: an import of the export would create it, and `tms push
 * --remove-unused` would delete the keys. They are refused, every one of them named, rather than
 * written. Suffixed keys that read back as they are (no `_other` among them, or beside a key of
 * the base name) are written. A group is all forms of one plural value or all stored keys: a plural
 * is written as forms only when no stored key shares its base (ownsGroup).
 */
function refuseMergedKeys(items: readonly { key: string; expanded: boolean }[]): void {
  const refused: [key: string, error: FormatError][] = [];
  for (const group of pluralGroups(items).plurals) {
    const stored = [...group.forms.values()].filter((i) => !i.expanded).map((i) => i.key);
    if (stored.length === 0) continue;
    stored.sort(byCodeUnits);
    const names = stored.join(', ');
    for (const key of stored) {
      const msg = `i18next reads the keys ${names} as the forms of one plural key '${group.base}', so '${key}' cannot be written as a key of its own: rename it, or store the forms as one plural value at '${group.base}'`;
      refused.push([key, new FormatError(['body', key], msg)]);
    }
  }
  throwAll(refused.sort((a, b) => byCodeUnits(a[0], b[0])).map(([, error]) => error));
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const i18nextCodec: FormatCodec = {
  pluralsOverCount: true,
  id: 'i18next',
  extension: 'json',
  contentType: 'application/json; charset=utf-8',
  needsSource: false,
  parse(body, ctx) {
    return parse(flattenJson(readJson(decodeUtf8(body))), ctx.language);
  },
  serialize(entries, ctx) {
    return encodeText(serialize(entries, ctx.plurals ?? ctx.language));
  },
};
