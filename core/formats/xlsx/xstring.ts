// SpreadsheetML's escape for characters XML cannot hold (ECMA-376 Part 1, ST_Xstring): `_xHHHH_`
// is the UTF-16 unit U+HHHH (its hexadecimal digits in either case), and `_x005F_` the underscore
// itself, which writers put before text that would otherwise read as an escape: `_x005F_x0041_` is
// the text `_x0041_`. Reading decodes every escape from left to right, as Excel does (and Excel
// writes a carriage return as `_x000D_`). Writing escapes the characters XML 1.0 cannot hold and
// every literal `_xHHHH_`, so any text comes back exactly. A carriage return is left to the XML
// writer, which writes `&#13;`: every XML parser reads that back, where some readers (openpyxl)
// leave `_x000D_` as it is.
const ESCAPE = /_x([0-9A-Fa-f]{4})_/g;
/** An underscore starting what would read as an escape, or a character XML 1.0 cannot hold. */
const ESCAPED = /_(?=x[0-9A-Fa-f]{4}_)|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export const decodeXstring = (text: string): string =>
  text.includes('_x') ? text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;

export const encodeXstring = (text: string): string =>
  text.replace(ESCAPED, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
