// Writing text and attributes for the XML formats. XML 1.0 cannot hold most C0 control characters
// at all, not even as character references, so a value containing one cannot be exported to an
// XML format: the writer throws FormatError (Android escapes them its own way first). CR is
// written as &#13; because a literal CR would be read back as LF.
import { FormatError } from '../format-error.ts';

const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const NOT_XML_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function assertXmlChars(text: string, key: string, what = 'value'): void {
  const bad = NOT_XML.exec(text);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw new FormatError(['body', key], `${what} contains U+${code}, which XML 1.0 cannot represent`);
  }
}

/** Descriptions are notes, not data: characters XML cannot hold are dropped rather than failing the export. */
export const withoutNonXmlChars = (text: string): string => text.replace(NOT_XML_ALL, '');

export const escapeXmlText = (text: string): string =>
  text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));

export const escapeXmlAttr = (text: string): string =>
  text.replace(/[&<>"\t\n\r]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : `&#${c.charCodeAt(0)};`,
  );

/** A comment's text: XML forbids `--` inside and a `-` at the end, so those are spaced apart. */
export function xmlCommentText(text: string): string {
  let out = withoutNonXmlChars(text).trim();
  while (out.includes('--')) out = out.replaceAll('--', '- -');
  return out.endsWith('-') ? `${out} ` : out;
}
