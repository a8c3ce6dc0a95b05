// Reading a nested JSON object as flat keys: names joined with '.', strings as values. The same key
// reached twice (`{"a": {"b": ...}, "a.b": ...}`) is refused, since one of the values would be lost.
import { FormatError } from '../format-error.ts';
import { jsonKind, type JsonDocument, type JsonNode } from './read-json.ts';

export type FlatLeaf = { key: string; value: string; path: string[]; offset: number };

export function flattenJson(doc: JsonDocument): FlatLeaf[] {
  const root = doc.root;
  if (root.kind !== 'object') throw new FormatError(['body'], `expected a JSON object at the top level, found ${jsonKind(root)}`);
  const leaves: FlatLeaf[] = [];
  const seen = new Map<string, number>();
  const walk = (node: JsonNode & { kind: 'object' }, path: string[]) => {
    for (const member of node.members) {
      const memberPath = [...path, member.key];
      const value = member.value;
      if (value.kind === 'object') {
        walk(value, memberPath);
      } else if (value.kind === 'string') {
        const key = memberPath.join('.');
        const first = seen.get(key);
        if (first !== undefined) {
          throw new FormatError(['body', ...memberPath], `key '${key}' appears twice (lines ${doc.line(first)} and ${doc.line(member.offset)})`);
        }
        seen.set(key, member.offset);
        leaves.push({ key, value: value.value, path: memberPath, offset: member.offset });
      } else {
        throw new FormatError(['body', ...memberPath], `expected a string or an object, found ${jsonKind(value)} (line ${doc.line(value.offset)})`);
      }
    }
  };
  walk(root, []);
  return leaves;
}
