// A1-style cell references: column letters A to XFD (0-based indexes here), rows 1 to 1,048,576,
// Excel's bounds (a reference past them is no cell of a sheet).
export const MAX_ROW = 1_048_576;
const MAX_COLUMNS = 16_384;

/** The letters of a 0-based column index: 0 is A, 26 is AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** `C7` as column 2 and row 7; undefined for anything else. */
export function parseCellRef(ref: string): { column: number; row: number } | undefined {
  const match = /^([A-Za-z]{1,3})([1-9][0-9]{0,6})$/.exec(ref);
  if (!match) return undefined;
  let column = 0;
  for (const letter of (match[1] ?? '').toUpperCase()) column = column * 26 + letter.charCodeAt(0) - 64;
  const row = Number(match[2]);
  return column <= MAX_COLUMNS && row <= MAX_ROW ? { column: column - 1, row } : undefined;
}
