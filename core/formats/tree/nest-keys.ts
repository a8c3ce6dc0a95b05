// Nesting flat keys on '.' for the nested formats (json-nested, i18next, yaml). One rule settles a
// key that is both a leaf and a prefix, such as `a` and `a.b`: the leaf keeps its place and the
// longer key is written flat (`"a.b": ...`) in the deepest object they share. Readers join names
// with '.', so both keys come back unchanged. Because keys arrive in code-point order and a key
// sorts before every key it prefixes, the outcome never depends on the order of the input.

export type Leaf<T> = { readonly leaf: T };
export type Branch<T> = Map<string, Branch<T> | Leaf<T>>;

export const isLeaf = <T>(node: Branch<T> | Leaf<T>): node is Leaf<T> => !(node instanceof Map);

/** `items` must be sorted by key and unique. */
export function nestKeys<T>(items: Iterable<readonly [string, T]>): Branch<T> {
  const root: Branch<T> = new Map();
  for (const [key, value] of items) {
    const names = key.split('.');
    let node = root;
    let i = 0;
    for (; i < names.length - 1; i++) {
      const name = names[i] ?? '';
      const child = node.get(name);
      if (child === undefined) {
        const branch: Branch<T> = new Map();
        node.set(name, branch);
        node = branch;
      } else if (isLeaf(child)) {
        break;
      } else {
        node = child;
      }
    }
    // Either the last name, or the rest of the key written flat where a leaf blocked the path.
    node.set(names.slice(i).join('.'), { leaf: value });
  }
  return root;
}
