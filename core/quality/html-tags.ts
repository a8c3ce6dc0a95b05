// HTML-like tags in values (`<b>`, `<a href="…">`, `<br/>`, rich-text components such as `<link>`):
// a translation must keep them balanced and use the same ones as its source, or rich text renders
// broken or React's Trans component throws.
// react-i18next's Trans numbers its components (`<0>here</0>`, `<1/>`): a name of digits alone is a
// tag too, without attributes, so that `x<1 and y>2` stays text.
const TAG = /<(\/?)([A-Za-z][\w.-]*(?:\s[^<>]*?)?|\d+\s*)(\/?)>/g;
// Elements that never close in HTML; written `<br>` or `<br/>` alike.
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/**
 * `tags`: the openings and self-closing tags, sorted (when balanced); `unbalanced`: the first
 * imbalance, said; `all`: every tag, closings included, sorted, so that a translation that keeps an
 * unbalanced source's tags exactly (`Press <Enter>`) can be told from one that breaks them.
 */
export type TagScan = { tags: string[]; unbalanced: string | null; all: string[] };

export function scanTags(text: string): TagScan {
  // No `<`, no tag: most values, and every value of an import is scanned (with its source).
  if (!text.includes('<')) return { tags: [], unbalanced: null, all: [] };
  const open: string[] = [];
  const tags: string[] = [];
  const matches = [...text.matchAll(TAG)];
  // A void name that the text closes somewhere is a component (`<link>…</link>` in React's Trans).
  const closed = new Set(matches.filter((m) => m[1]).map((m) => tagName(m[2]!)));
  // `<br>` and `<br/>` alike, as below.
  const all = matches
    .map(([, closing, nameAndAttributes, selfClosing]) => {
      const name = tagName(nameAndAttributes!);
      return selfClosing || (VOID.has(name) && !closing && !closed.has(name)) ? `<${name}/>` : `<${closing}${name}>`;
    })
    .sort();
  for (const m of matches) {
    const [, closing, nameAndAttributes, selfClosing] = m;
    const name = tagName(nameAndAttributes!);
    if (selfClosing || (VOID.has(name) && !closing && !closed.has(name))) {
      tags.push(`<${name}/>`);
      continue;
    }
    if (!closing) {
      open.push(name);
      tags.push(`<${name}>`);
      continue;
    }
    const top = open.pop();
    if (top !== name) return { tags, unbalanced: top ? `<${top}> is closed by </${name}>` : `</${name}> closes nothing`, all };
  }
  if (open.length) return { tags, unbalanced: `<${open.at(-1)}> is never closed`, all };
  return { tags: tags.sort(), unbalanced: null, all };
}

const tagName = (nameAndAttributes: string) => nameAndAttributes.split(/\s/, 1)[0]!.toLowerCase();
