// Keys of the JSON formats: json (top-level names), json-nested and i18next (names joined with '.',
// i18next's plural siblings `x_one`, `x_other` read as the one key `x`), arb (names not starting
// with '@').
import { utf8 } from './text.ts';

type JsonObject = { [name: string]: unknown };
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function object(body: Uint8Array): JsonObject {
  const value: unknown = JSON.parse(utf8(body));
  if (!isObject(value)) throw new Error('expected a JSON object at the top level');
  return value;
}

/** The names of the leaves, nested objects joined with '.', in file order. */
function leaves(node: JsonObject, prefix = ''): string[] {
  return Object.entries(node).flatMap(([name, value]) => (isObject(value) ? leaves(value, `${prefix}${name}.`) : [`${prefix}${name}`]));
}

export const jsonKeys = (body: Uint8Array) => Object.keys(object(body));
export const jsonNestedKeys = (body: Uint8Array) => leaves(object(body));
export const arbKeys = (body: Uint8Array) => Object.keys(object(body)).filter((name) => !name.startsWith('@'));

const SUFFIX = /^(.+?)_(ordinal_)?(zero|one|two|few|many|other)$/;

/**
 * i18next: siblings with CLDR suffixes that include `_other` (`_ordinal_other`) and whose base is
 * not a key of its own are one plural at the base; cardinals claim a base before ordinals.
 */
export function i18nextKeys(body: Uint8Array): string[] {
  const names = leaves(object(body));
  const groups = new Map<string, { base: string; ordinal: boolean; forms: Set<string>; members: string[] }>();
  for (const name of names) {
    const m = SUFFIX.exec(name);
    if (!m) continue;
    const id = `${m[2] ? 'o' : 'c'}:${m[1]}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { base: m[1] ?? '', ordinal: Boolean(m[2]), forms: new Set(), members: [] }));
    group.forms.add(m[3] ?? '');
    group.members.push(name);
  }
  const own = new Set(names);
  const bases = new Set<string>();
  const pluralOf = new Map<string, string>();
  for (const group of [...groups.values()].sort((a, b) => Number(a.ordinal) - Number(b.ordinal))) {
    if (!group.forms.has('other') || own.has(group.base) || bases.has(group.base)) continue;
    bases.add(group.base);
    for (const member of group.members) pluralOf.set(member, group.base);
  }
  return [...new Set(names.map((name) => pluralOf.get(name) ?? name))];
}
