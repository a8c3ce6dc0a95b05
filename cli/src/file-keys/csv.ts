// Keys (and groups) of a CSV file with the header key,group,description,value: columns in any order
// and case, ',' ';' or tab (or Excel's `sep=` line), RFC 4180 quoting, a byte order mark.
import { utf8 } from './text.ts';

/** A CSV text's records (RFC 4180 quoting: a quoted field may hold the delimiter and line breaks); blank lines are skipped. */
export function rows(text: string, delimiter: string): string[][] {
  const out: string[][] = [];
  let pos = 0;
  while (pos < text.length) {
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text[pos] === '"') {
        pos++;
        for (;;) {
          const q = text.indexOf('"', pos);
          if (q === -1) throw new Error('a quoted field is not closed');
          field += text.slice(pos, q);
          pos = q + 1;
          if (text[pos] !== '"') break;
          field += '"';
          pos++;
        }
      } else {
        let end = pos;
        while (end < text.length && text[end] !== delimiter && text[end] !== '\r' && text[end] !== '\n') end++;
        field = text.slice(pos, end);
        pos = end;
      }
      fields.push(field);
      if (text[pos] !== delimiter) break;
      pos++;
    }
    while (pos < text.length && text[pos] !== '\r' && text[pos] !== '\n') pos++;
    if (text[pos] === '\r') pos++;
    if (text[pos] === '\n') pos++;
    if (!(fields.length === 1 && fields[0] === '')) out.push(fields);
  }
  return out;
}

export function csvKeys(body: Uint8Array): { key: string; group?: string }[] {
  let text = utf8(body);
  const sep = /^sep=(.)(\r\n|\n|\r|$)/.exec(text);
  let delimiter = sep?.[1] ?? ',';
  if (sep) text = text.slice(sep[0].length);
  else {
    const header = text.slice(0, text.search(/\r|\n|$/)).toLowerCase();
    delimiter = [',', ';', '\t'].find((d) => header.split(d).map((s) => s.trim().replace(/^"|"$/g, '')).includes('key')) ?? ',';
  }
  const [header, ...records] = rows(text, delimiter);
  const names = (header ?? []).map((f) => f.trim().toLowerCase());
  const keyAt = names.indexOf('key');
  const groupAt = names.indexOf('group');
  if (keyAt === -1) throw new Error('the header has no key column');
  return records.map((fields) => {
    const group = groupAt === -1 ? '' : (fields[groupAt] ?? '');
    return group ? { key: fields[keyAt] ?? '', group } : { key: fields[keyAt] ?? '' };
  });
}
