// Keys of a .NET .resx file: the `name` of each <data> element directly inside <root>, in file
// order. Every one counts, strings or not: the server skips images, file references and other
// typed resources with a warning, but the file still has them. <metadata>, <resheader> and
// <assembly> are no keys, and neither is the example <data> in the schema comment Visual Studio
// writes at the top: comments, CDATA, processing instructions and the DOCTYPE are skipped. Only
// tags and their depth are read, not a tree: the names are all this needs.
import { utf8 } from './text.ts';

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** What is skipped whole, by how it opens and closes. */
const SKIPPED: [string, string][] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
];
/** A start or end tag: `/` for an end tag, the name, and the attributes (quoted values may hold `>`). */
const TAG = /<(\/?)([^\s/>]+)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;
const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** An attribute value as XML reads it: line breaks and tabs are spaces, then references are decoded. */
function attributeValue(raw: string): string {
  return raw.replace(/\r\n?|[\t\n]/g, ' ').replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (match, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return ENTITIES[ref] ?? match;
  });
}

function nameOf(attributes: string): string | undefined {
  for (const [, attr, double, single] of attributes.matchAll(ATTRIBUTE)) if (attr === 'name') return attributeValue(double ?? single ?? '');
  return undefined;
}

export function resxKeys(body: Uint8Array): string[] {
  const text = utf8(body);
  const keys: string[] = [];
  let depth = 0;
  for (let pos = text.indexOf('<'); pos !== -1; ) {
    const skipped = SKIPPED.find(([open]) => text.startsWith(open, pos));
    if (skipped) {
      const end = text.indexOf(skipped[1], pos + skipped[0].length);
      if (end === -1) throw new Error(`unterminated ${skipped[0]}`);
      pos = text.indexOf('<', end + skipped[1].length);
      continue;
    }
    TAG.lastIndex = pos;
    const tag = TAG.exec(text);
    if (!tag) throw new Error(`malformed tag at offset ${pos}`);
    const [, end, name, attributes = ''] = tag;
    if (end) depth--;
    else {
      const key = depth === 1 && name === 'data' ? nameOf(attributes) : undefined;
      if (key !== undefined) keys.push(key);
      if (!attributes.endsWith('/')) depth++;
    }
    pos = text.indexOf('<', TAG.lastIndex);
  }
  return keys;
}
