// Keys (and groups) of an Excel workbook (.xlsx), read as the server reads them: the table in the
// first worksheet of xl/workbook.xml (through its relationships), cells placed by their reference
// (`C7`) or after the cell before, the header the first row with text, its key and group columns
// in any order and case. A cell's text: a shared string (rich-text runs joined, phonetic runs left
// out), an inline string, a formula's cached text or a number as written, SpreadsheetML's
// `_xHHHH_` escapes decoded. Only the parts needed are unpacked, each declared at most 32 MiB.
import { unzipSync } from 'fflate';
import { elements, readXml, textOf, type Element } from './xml.ts';
import { utf8 } from './text.ts';

const MAX_PART_BYTES = 32 * 1024 * 1024;

const local = (name: string) => name.slice(name.indexOf(':') + 1);
const named = (el: Element, name: string) => elements(el).filter((child) => local(child.name) === name);
const unescape = (text: string) => text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A part's XML, if the archive has it (names compared in any case, a backslash as a slash). */
function part(body: Uint8Array, path: string): Element | undefined {
  const wanted = path.toLowerCase();
  const files = unzipSync(body, {
    filter: (file) => {
      if (file.name.replaceAll('\\', '/').toLowerCase() !== wanted) return false;
      if (file.originalSize > MAX_PART_BYTES) throw new Error(`${path} unpacks to more than ${MAX_PART_BYTES / 2 ** 20} MiB`);
      return true;
    },
  });
  const bytes = Object.values(files)[0];
  return bytes && readXml(utf8(bytes));
}

/** The part a relationship's target names, from xl/ (or absolute). */
function resolve(target: string): string {
  const path = target.startsWith('/') ? [] : ['xl'];
  for (const segment of target.split('/')) {
    if (segment === '..') path.pop();
    else if (segment !== '.' && segment !== '') path.push(segment);
  }
  return path.join('/');
}

/** A shared or inline string: its <t>, or its runs' <t>s, without phonetic runs (<rPh>). */
const richText = (el: Element): string =>
  elements(el)
    .map((child) => (local(child.name) === 't' ? unescape(textOf(child)) : local(child.name) === 'r' ? named(child, 't').map((t) => unescape(textOf(t))).join('') : ''))
    .join('');

function cellText(c: Element, strings: readonly string[]): string {
  const type = c.attrs.get('t');
  if (type === 'inlineStr') return named(c, 'is').map(richText).join('');
  const v = named(c, 'v')[0];
  const value = v ? textOf(v) : '';
  // No <v> is an empty cell, as the server reads it (Number('') would be the first string).
  if (type === 's') return value.trim() === '' ? '' : (strings[Number(value)] ?? '');
  if (type === 'str') return unescape(value);
  if (type === 'b') return value.trim() === '1' ? 'TRUE' : 'FALSE';
  return value;
}

/** 0-based column of a reference such as `C7`; undefined if there is none. */
function column(ref: string | undefined): number | undefined {
  const letters = ref === undefined ? undefined : /^[A-Za-z]+/.exec(ref)?.[0];
  return letters === undefined ? undefined : [...letters.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;
}

export function xlsxKeys(body: Uint8Array): { key: string; group?: string }[] {
  const workbook = part(body, 'xl/workbook.xml');
  if (workbook === undefined) throw new Error('not an Excel workbook: it has no xl/workbook.xml');
  const rels = part(body, 'xl/_rels/workbook.xml.rels');
  const targets = new Map((rels ? named(rels, 'Relationship') : []).map((r) => [r.attrs.get('Id'), { type: (r.attrs.get('Type') ?? '').split('/').pop(), path: resolve(r.attrs.get('Target') ?? '') }]));
  const sheets = named(workbook, 'sheets').flatMap((list) => named(list, 'sheet'));
  const sheetPath = sheets.map((s) => targets.get([...s.attrs].find(([name]) => name.endsWith(':id'))?.[1])).find((t) => t?.type === 'worksheet')?.path;
  if (sheetPath === undefined) throw new Error('the workbook has no worksheet');
  const sst = part(body, [...targets.values()].find((t) => t.type === 'sharedStrings')?.path ?? 'xl/sharedStrings.xml');
  const strings = sst ? named(sst, 'si').map(richText) : [];
  const sheet = part(body, sheetPath);
  if (sheet === undefined) throw new Error(`the first worksheet, ${sheetPath}, is missing`);
  const rows: Map<number, string>[] = [];
  for (const row of named(sheet, 'sheetData').flatMap((data) => named(data, 'row'))) {
    const cells = new Map<number, string>();
    let at = -1;
    for (const c of named(row, 'c')) {
      at = column(c.attrs.get('r')) ?? at + 1;
      const text = cellText(c, strings);
      if (text !== '') cells.set(at, text);
    }
    if (cells.size > 0) rows.push(cells);
  }
  const [header, ...records] = rows;
  // A column named twice is read at its first, as the server reads it.
  const names = new Map<string, number>();
  for (const [at, name] of header ?? []) if (!names.has(name.trim().toLowerCase())) names.set(name.trim().toLowerCase(), at);
  const keyAt = names.get('key');
  const groupAt = names.get('group');
  if (keyAt === undefined) throw new Error('the header has no key column');
  return records.map((cells) => {
    const group = groupAt === undefined ? '' : (cells.get(groupAt) ?? '');
    return group ? { key: cells.get(keyAt) ?? '', group } : { key: cells.get(keyAt) ?? '' };
  });
}
