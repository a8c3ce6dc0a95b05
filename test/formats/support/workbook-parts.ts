// Excel workbooks built from their XML parts, for the tests that need one in a given shape (as Excel
// writes it, or broken on purpose): the parts given, over a minimal workbook of one sheet whose
// rows are inline strings.
import { zipSync } from 'fflate';

export const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE = 'http://schemas.openxmlformats.org/package/2006/relationships';

const escape = (text: string) => text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

/** A worksheet part whose rows hold these texts as inline strings (`null`: no cell), one row per line from row 1. */
export function sheetOf(rows: readonly (readonly (string | null)[])[]): string {
  const cells = (row: readonly (string | null)[], r: number) =>
    row.map((text, c) => (text === null ? '' : `<c r="${String.fromCharCode(65 + c)}${r}" t="inlineStr"><is><t xml:space="preserve">${escape(text)}</t></is></c>`)).join('');
  const data = rows.map((row, i) => `<row r="${i + 1}">${cells(row, i + 1)}</row>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}"><sheetData>${data}</sheetData></worksheet>`;
}

/** The parts of a workbook whose one sheet is xl/worksheets/sheet1.xml and whose shared strings are xl/sharedStrings.xml. */
export const BASE_PARTS: Record<string, string> = {
  '[Content_Types].xml': `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
  '_rels/.rels': `<Relationships xmlns="${PACKAGE}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  'xl/workbook.xml': `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets><sheet name="de" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  'xl/_rels/workbook.xml.rels': `<Relationships xmlns="${PACKAGE}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELATIONSHIPS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
};

/**
 * A workbook of these parts over BASE_PARTS (a part given as null is left out). `stored`: the parts
 * not deflated, for XML that would unpack to more than the reader's ratio allows (repeated markup
 * that tests the XML reader's own limits).
 */
export function workbookOf(parts: Record<string, string | Uint8Array | null>, options: { stored?: boolean } = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [name, part] of Object.entries({ ...BASE_PARTS, ...parts })) {
    if (part !== null) files[name] = typeof part === 'string' ? new TextEncoder().encode(part) : part;
  }
  return zipSync(files, { mtime: new Date(1980, 0, 1), ...(options.stored ? { level: 0 } : {}) });
}

/** A workbook whose first sheet holds these rows of inline strings. */
export const tableWorkbook = (rows: readonly (readonly (string | null)[])[]) => workbookOf({ 'xl/worksheets/sheet1.xml': sheetOf(rows) });

/**
 * A ZIP archive written entry by entry, as no writer would: each entry's data as given (stored, or
 * already deflated with method 8), with the size and CRC-32 its headers declare, true or not.
 */
export function rawZip(entries: readonly { name: string; data: Uint8Array; method: 0 | 8; size: number; crc: number }[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, method, size, crc } of entries) {
    const file = Buffer.from(name, 'latin1');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(file.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(file.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, file, Buffer.from(data));
    centrals.push(central, file);
    offset += 30 + file.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A raw deflate stream of 1 + 258 * `copies` zero bytes, about 159 times smaller: one block of
 * fixed Huffman codes, a literal 0, then `copies` times "258 bytes from 1 back" (13 bits each).
 */
export function deflatedZeros(copies: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((3 + 8 + 13 * copies + 7) / 8));
  let bit = 0;
  /** Huffman codes are written from their most significant bit, header fields from their least. */
  const code = (value: number, bits: number) => {
    for (let i = bits - 1; i >= 0; i--, bit++) if ((value >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7);
  };
  const field = (value: number, bits: number) => {
    for (let i = 0; i < bits; i++, bit++) if ((value >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7);
  };
  field(1, 1); // the final block
  field(1, 2); // of fixed Huffman codes
  code(0x30, 8); // literal 0
  for (let i = 0; i < copies; i++) {
    code(0b11000101, 8); // length 258 (code 285)
    code(0, 5); // distance 1 (code 0)
  }
  code(0, 7); // end of block
  return out;
}
