// Keys of a Rails YAML file: under the locale's root key, names nested on '.'; a mapping whose
// names are all plural categories including `other`, and whose values are all text to Rails, is
// one plural key. Aliases and `<<` merges are followed. Read with the `yaml` package (loaded only
// for this format).
import { utf8 } from './text.ts';

const CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

// Mirrors NOT_A_STRING, psychNonString() and scalarText() of the server's YAML codec
// (core/formats/codecs/yaml.ts; the CLI imports nothing from core): a plural's forms must all be
// text to Rails, or the mapping is no plural and its text forms are keys of their own
// (`messages.one` beside an empty `messages.other`). Keep the two in step.
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

export async function yamlKeys(body: Uint8Array, language: string): Promise<string[]> {
  const { isAlias, isMap, isScalar, isSeq, parseDocument } = await import('yaml');
  /** Whether Rails reads a value as text (the server's scalarText() giving `text`). */
  const isText = (value: unknown) => isScalar(value) && (value.type !== 'PLAIN' || !psychNonString(String(value.value)));
  const doc = parseDocument(utf8(body), { schema: 'failsafe', uniqueKeys: false });
  if (doc.errors[0]) throw new Error(`invalid YAML: ${doc.errors[0].message.split('\n')[0]}`);
  const resolve = (node: unknown): unknown => {
    let n = node;
    for (let hops = 0; isAlias(n) && hops < 100; hops++) n = n.resolve(doc);
    return n;
  };
  // Aliases repeat what they point at, so a few bytes can stand for billions of entries, and an
  // alias to an enclosing mapping never ends: both are refused, as the server's reader does.
  let budget = Math.max(100_000, body.length);
  const open = new Set<unknown>();
  /** A mapping's names and values, `<<` merges first and overridden by explicit names. */
  const pairs = (map: unknown): [string, unknown][] => {
    if (!isMap(map)) return [];
    budget -= map.items.length;
    if (budget < 0) throw new Error('invalid YAML: its aliases expand to too many entries');
    const explicit: [string, unknown][] = [];
    const merged: [string, unknown][] = [];
    for (const pair of map.items) {
      if (!isScalar(pair.key)) throw new Error('a key must be a plain name');
      const name = String(pair.key.value);
      if (name === '<<' && pair.key.type === 'PLAIN') {
        const sources = resolve(pair.value);
        for (const source of isSeq(sources) ? sources.items : [sources]) merged.push(...pairs(resolve(source)));
      } else explicit.push([name, pair.value]);
    }
    const names = new Set(explicit.map(([n]) => n));
    return [...merged.filter(([n]) => !names.has(n)), ...explicit];
  };
  const keys: string[] = [];
  const walk = (map: unknown, prefix: string) => {
    for (const [name, node] of pairs(map)) {
      const value = resolve(node);
      const inner = isMap(value) ? pairs(value) : [];
      const plural = inner.some(([n]) => n === 'other') && inner.every(([n, v]) => CATEGORIES.has(n) && isText(resolve(v)));
      if (isMap(value) && !plural) {
        if (open.has(value)) throw new Error(`invalid YAML: an alias under ${prefix}${name} refers to a mapping that contains it`);
        open.add(value);
        walk(value, `${prefix}${name}.`);
        open.delete(value);
      }
      else keys.push(`${prefix}${name}`);
    }
  };
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === '')) return [];
  const locales = pairs(root);
  const normalize = (s: string) => s.replaceAll('_', '-').toLowerCase();
  const chosen = locales.length === 1 ? locales[0] : locales.find(([name]) => normalize(name) === normalize(language));
  if (chosen === undefined) throw new Error(`the file has no locale ${language}`);
  walk(resolve(chosen[1]), '');
  return keys;
}
