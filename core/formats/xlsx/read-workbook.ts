// The first worksheet of an .xlsx workbook, as rows of cells. The sheet is the first <sheet> of
// xl/workbook.xml that is a worksheet (a chart sheet has no cells), in workbook order whatever
// the tabs' names, hidden or not, found through xl/_rels/workbook.xml.rels; the shared strings are
// the workbook's sharedStrings relationship (else xl/sharedStrings.xml). Only these four parts are
// unpacked, together at most MAX_UNPACKED_BYTES (zip/read-zip.ts checks each declared size before
// inflating, and refuses an entry that inflates past it). Files that are not workbooks are refused
// by what they are: an Excel 97-2003 .xls (an OLE2 file, as a workbook saved with a password is
// too), an OpenDocument spreadsheet, a ZIP archive of something else, or no ZIP archive at all.
import { FormatError } from '../format-error.ts';
import { unzip, zipEntries, type UnzipBudget } from '../zip/read-zip.ts';
import { partElements, partText, relationships, type Relationship } from './package-parts.ts';
import { sharedStrings, sheetRows, type SheetRow } from './read-sheet.ts';

/**
 * How much a workbook's parts may unpack to, all together. The sheet and shared strings of 50,000
 * keys with descriptions unpack to 17 MiB. Reading XML costs about a microsecond per element, and
 * a few hundred KB of deflated empty cells (`<c/>`) unpack to 32 MiB, which take some 8 s to read:
 * twice the worst a 10 MiB file of another XML format costs (3.5 s). 64 MiB would be four times.
 */
const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;

const WORKBOOK = 'xl/workbook.xml';
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const refuse = (msg: string): never => {
  throw new FormatError(['body'], msg);
};

/** The name and part of the first <sheet> that is a worksheet. */
function firstWorksheet(workbook: string, rels: ReadonlyMap<string, Relationship>): { name: string; part: string; hidden: boolean } {
  let sheets = 0;
  for (const sheet of partElements(WORKBOOK, workbook, 'sheet')) {
    sheets++;
    // r:id, whatever prefix the relationships namespace has.
    const id = [...sheet.attrs].find(([name]) => name.endsWith(':id'))?.[1];
    const rel = id === undefined ? undefined : rels.get(id);
    if (rel?.type === 'worksheet') return { name: sheet.attrs.get('name') ?? '', part: rel.part, hidden: (sheet.attrs.get('state') ?? 'visible') !== 'visible' };
  }
  return refuse(sheets ? `${WORKBOOK} names no worksheet (only chart sheets, or sheets without a relationship)` : `${WORKBOOK} has no sheets`);
}

export function readFirstSheet(body: Uint8Array): { name: string; hidden: boolean; rows: Generator<SheetRow> } {
  if (OLE2.every((byte, i) => body[i] === byte)) refuse('the file is an Excel 97-2003 .xls file; save it as .xlsx (a workbook saved with a password is such a file too: save it without one)');
  // "PK": a local file header, or the end record of an empty archive.
  if (body[0] !== 0x50 || body[1] !== 0x4b) refuse('the file is not an .xlsx workbook (an .xlsx file is a ZIP archive, and this is none)');
  const entries = zipEntries(body);
  const budget: UnzipBudget = { left: MAX_UNPACKED_BYTES, total: MAX_UNPACKED_BYTES };
  const part = (path: string): string | undefined => {
    const entry = entries.get(path.toLowerCase());
    return entry && partText(entry.name, unzip(body, entry, budget));
  };
  const workbook = part(WORKBOOK);
  if (workbook === undefined) {
    return refuse(entries.has('content.xml') ? 'the file is an OpenDocument spreadsheet (.ods); save it as .xlsx' : `the ZIP archive is no Excel workbook: it has no ${WORKBOOK}`);
  }
  const relsPart = 'xl/_rels/workbook.xml.rels';
  const rels = relationships(relsPart, part(relsPart) ?? '', WORKBOOK);
  const sheet = firstWorksheet(workbook, rels);
  const stringsPart = [...rels.values()].find((rel) => rel.type === 'sharedStrings')?.part ?? 'xl/sharedStrings.xml';
  const sst = part(stringsPart);
  const strings = sst === undefined ? [] : sharedStrings(stringsPart, sst);
  const worksheet = part(sheet.part) ?? refuse(`the workbook's first worksheet, ${sheet.part}, is missing`);
  return { name: sheet.name, hidden: sheet.hidden, rows: sheetRows(sheet.part, worksheet, strings) };
}
