// Flat keys and values as nested JSON text (nesting on '.', see tree/nest-keys.ts).
import { isLeaf, nestKeys, type Branch } from '../tree/nest-keys.ts';
import { jsonText, type JsonOut } from './write-json.ts';

function toJson(branch: Branch<string>): Map<string, JsonOut> {
  const out = new Map<string, JsonOut>();
  for (const [name, node] of branch) out.set(name, isLeaf(node) ? node.leaf : toJson(node));
  return out;
}

/** `items` sorted by key, keys unique. */
export const nestedJsonText = (items: Iterable<readonly [string, string]>): string => jsonText(toJson(nestKeys(items)));
