// .NET resources (.resx: WinForms, WPF, ASP.NET Core's IStringLocalizer, MAUI), in the shape Visual
// Studio's resource designer writes them: <root> with the standard ResX schema and four
// <resheader>s, then one <data name="key" xml:space="preserve"> per string, holding its <value> and,
// for a description, a <comment>. The resources are the <data> children of <root>, as
// ResXResourceReader and MSBuild's GenerateResource read them; <resheader>, <assembly>,
// <xsd:schema> and <metadata> (the WinForms designer's design-time data) are not strings.
//
// A <data> with a `type` other than System.String (in any spelling: `System.String, mscorlib, ...`)
// or with a `mimetype` is not text: an image, a file reference (ResXFileRef: its text is in another
// file), a serialized object, or the ResXNullRef that Visual Studio's Resource Explorer writes for a
// value left untranslated. Those are skipped with a warning naming them. A name twice, in any case
// (.NET's names ignore case), refuses the file (MSBuild keeps the first with a warning, MSB3568), and
// export refuses keys that differ only in case; a name with a control character is
// skipped with a warning (no tms key can hold one).
//
// Text is read exactly as written: Visual Studio writes xml:space="preserve", and a value without
// it is read the same. XML reads a line break written CRLF as LF; a CR written &#13; is kept, and
// export writes a CR so. Text directly inside <data>, outside <value>, is refused: .NET Framework
// trims it and .NET's MSBuild does not, so no one reading of it is the app's.
//
// Export writes Visual Studio's header byte for byte (its schema comment included), entries sorted
// by key, two-space indentation, `<value />` for an empty value. A value or comment that is only
// whitespace is written as CDATA: MSBuild on .NET (Core) drops whitespace-only text, even under
// xml:space="preserve" (dotnet/msbuild#7074), and keeps CDATA.
//
// Not carried: characters XML 1.0 cannot hold (U+0001-U+0008, U+000B, U+000C, U+000E-U+001F, U+FFFE,
// U+FFFF). A key or value with one refuses the export, naming the key (as XLIFF does); a description
// drops them (a note, not data, as XLIFF notes). An empty description is written as none. Every
// other description, whitespace and CRs included, comes back exactly.
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { clip } from '../text/clip.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { controlCharacterWarnings, hasControlCharacters, type SkippedKey } from '../entries/control-character-keys.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { elementsOf, readXml, textOf, type XmlElement } from '../xml/read-xml.ts';
import { assertXmlChars, escapeXmlAttr, escapeXmlText, withoutNonXmlChars } from '../xml/escape-xml.ts';

/**
 * What Visual Studio writes before the first <data> of a resource file (its "Resources File"
 * template, which the designer keeps): the XML declaration, <root>, the schema comment and
 * <xsd:schema>, and the four <resheader>s. ResXResourceReader refuses a file without the
 * resmimetype, reader and writer headers. Trailing spaces included, as the template has them.
 */
const HEADER = [
  '<?xml version="1.0" encoding="utf-8"?>',
  '<root>',
  '  <!-- ',
  '    Microsoft ResX Schema ',
  '    ',
  '    Version 2.0',
  '    ',
  '    The primary goals of this format is to allow a simple XML format ',
  '    that is mostly human readable. The generation and parsing of the ',
  '    various data types are done through the TypeConverter classes ',
  '    associated with the data types.',
  '    ',
  '    Example:',
  '    ',
  '    ... ado.net/XML headers & schema ...',
  '    <resheader name="resmimetype">text/microsoft-resx</resheader>',
  '    <resheader name="version">2.0</resheader>',
  '    <resheader name="reader">System.Resources.ResXResourceReader, System.Windows.Forms, ...</resheader>',
  '    <resheader name="writer">System.Resources.ResXResourceWriter, System.Windows.Forms, ...</resheader>',
  '    <data name="Name1"><value>this is my long string</value><comment>this is a comment</comment></data>',
  '    <data name="Color1" type="System.Drawing.Color, System.Drawing">Blue</data>',
  '    <data name="Bitmap1" mimetype="application/x-microsoft.net.object.binary.base64">',
  '        <value>[base64 mime encoded serialized .NET Framework object]</value>',
  '    </data>',
  '    <data name="Icon1" type="System.Drawing.Icon, System.Drawing" mimetype="application/x-microsoft.net.object.bytearray.base64">',
  '        <value>[base64 mime encoded string representing a byte array form of the .NET Framework object]</value>',
  '        <comment>This is a comment</comment>',
  '    </data>',
  '                ',
  '    There are any number of "resheader" rows that contain simple ',
  '    name/value pairs.',
  '    ',
  '    Each data row contains a name, and value. The row also contains a ',
  '    type or mimetype. Type corresponds to a .NET class that support ',
  '    text/value conversion through the TypeConverter architecture. ',
  '    Classes that don\'t support this are serialized and stored with the ',
  '    mimetype set.',
  '    ',
  '    The mimetype is used for serialized objects, and tells the ',
  '    ResXResourceReader how to depersist the object. This is currently not ',
  '    extensible. For a given mimetype the value must be set accordingly:',
  '    ',
  '    Note - application/x-microsoft.net.object.binary.base64 is the format ',
  '    that the ResXResourceWriter will generate, however the reader can ',
  '    read any of the formats listed below.',
  '    ',
  '    mimetype: application/x-microsoft.net.object.binary.base64',
  '    value   : The object must be serialized with ',
  '            : System.Runtime.Serialization.Formatters.Binary.BinaryFormatter',
  '            : and then encoded with base64 encoding.',
  '    ',
  '    mimetype: application/x-microsoft.net.object.soap.base64',
  '    value   : The object must be serialized with ',
  '            : System.Runtime.Serialization.Formatters.Soap.SoapFormatter',
  '            : and then encoded with base64 encoding.',
  '',
  '    mimetype: application/x-microsoft.net.object.bytearray.base64',
  '    value   : The object must be serialized into a byte array ',
  '            : using a System.ComponentModel.TypeConverter',
  '            : and then encoded with base64 encoding.',
  '    -->',
  '  <xsd:schema id="root" xmlns="" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">',
  '    <xsd:import namespace="http://www.w3.org/XML/1998/namespace" />',
  '    <xsd:element name="root" msdata:IsDataSet="true">',
  '      <xsd:complexType>',
  '        <xsd:choice maxOccurs="unbounded">',
  '          <xsd:element name="metadata">',
  '            <xsd:complexType>',
  '              <xsd:sequence>',
  '                <xsd:element name="value" type="xsd:string" minOccurs="0" />',
  '              </xsd:sequence>',
  '              <xsd:attribute name="name" use="required" type="xsd:string" />',
  '              <xsd:attribute name="type" type="xsd:string" />',
  '              <xsd:attribute name="mimetype" type="xsd:string" />',
  '              <xsd:attribute ref="xml:space" />',
  '            </xsd:complexType>',
  '          </xsd:element>',
  '          <xsd:element name="assembly">',
  '            <xsd:complexType>',
  '              <xsd:attribute name="alias" type="xsd:string" />',
  '              <xsd:attribute name="name" type="xsd:string" />',
  '            </xsd:complexType>',
  '          </xsd:element>',
  '          <xsd:element name="data">',
  '            <xsd:complexType>',
  '              <xsd:sequence>',
  '                <xsd:element name="value" type="xsd:string" minOccurs="0" msdata:Ordinal="1" />',
  '                <xsd:element name="comment" type="xsd:string" minOccurs="0" msdata:Ordinal="2" />',
  '              </xsd:sequence>',
  '              <xsd:attribute name="name" type="xsd:string" use="required" msdata:Ordinal="1" />',
  '              <xsd:attribute name="type" type="xsd:string" msdata:Ordinal="3" />',
  '              <xsd:attribute name="mimetype" type="xsd:string" msdata:Ordinal="4" />',
  '              <xsd:attribute ref="xml:space" />',
  '            </xsd:complexType>',
  '          </xsd:element>',
  '          <xsd:element name="resheader">',
  '            <xsd:complexType>',
  '              <xsd:sequence>',
  '                <xsd:element name="value" type="xsd:string" minOccurs="0" msdata:Ordinal="1" />',
  '              </xsd:sequence>',
  '              <xsd:attribute name="name" type="xsd:string" use="required" />',
  '            </xsd:complexType>',
  '          </xsd:element>',
  '        </xsd:choice>',
  '      </xsd:complexType>',
  '    </xsd:element>',
  '  </xsd:schema>',
  '  <resheader name="resmimetype">',
  '    <value>text/microsoft-resx</value>',
  '  </resheader>',
  '  <resheader name="version">',
  '    <value>2.0</value>',
  '  </resheader>',
  '  <resheader name="reader">',
  '    <value>System.Resources.ResXResourceReader, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value>',
  '  </resheader>',
  '  <resheader name="writer">',
  '    <value>System.Resources.ResXResourceWriter, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value>',
  '  </resheader>',
].join('\n');

/** `System.String`, bare or assembly-qualified (`System.String, mscorlib, Version=4.0.0.0, ...`). */
const STRING_TYPE = /^\s*System\.String\s*(,|$)/;
/**
 * A resource name as .NET compares names: ordinal, ignoring case (MSBuild's GenerateResource keeps
 * the first of `Title` and `title` with warning MSB3568; ResourceWriter refuses the second). Each
 * character upper-cased alone, as OrdinalIgnoreCase does: "ß" stays "ß".
 */
const dotnetName = (name: string) => [...name].map((c) => (c.toUpperCase().length === c.length ? c.toUpperCase() : c)).join('');

/** How many skipped resources a warning names; it counts them all. */
const NAMED = 10;

const isString = (data: XmlElement) => {
  const type = data.attrs.get('type');
  return !data.attrs.has('mimetype') && (type === undefined || STRING_TYPE.test(type));
};

function nameOf(data: XmlElement): string {
  const name = data.attrs.get('name');
  if (name === undefined || name === '') throw new FormatError(['body', 'line', data.line], '<data> has no name');
  return name;
}

/** The <value> and <comment> of a string resource, each at most once, and nothing else in it. */
function partsOf(data: XmlElement, name: string): { value?: XmlElement; comment?: XmlElement } {
  const parts: { value?: XmlElement; comment?: XmlElement } = {};
  for (const child of data.children) {
    const at = ['body', 'line', child.line];
    if (child.kind === 'text' && (child.cdata || /[^ \t\n]/.test(child.text))) {
      throw new FormatError(at, `<data name="${name}"> has text outside <value>; write it inside <value>…</value>`);
    }
    if (child.kind !== 'element') continue;
    if (child.name !== 'value' && child.name !== 'comment') throw new FormatError(at, `<data name="${name}"> may hold only <value> and <comment>, found <${child.name}>`);
    if (parts[child.name]) throw new FormatError(at, `<data name="${name}"> has two <${child.name}> elements`);
    parts[child.name] = child;
  }
  return parts;
}

function nonStringWarnings(names: readonly string[]): string[] {
  if (names.length === 0) return [];
  const shown = names.slice(0, NAMED).map((n) => clip(n, 61));
  const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
  const count = names.length === 1 ? '1 resource that is not a string was' : `${names.length} resources that are not strings were`;
  return [`${count} skipped (files, images and other typed resources; tms stores text): ${shown.join(', ')}${more}`];
}

function parse(body: Uint8Array) {
  const root = readXml(decodeUtf8(body));
  if (root.name !== 'root') throw new FormatError(['body', 'line', root.line], `expected a .resx <root>, found <${root.name}>`);
  const entries: Entry[] = [];
  const seen = new Map<string, number>();
  const nonString: string[] = [];
  const controlCharacters: SkippedKey[] = [];
  const named = new Map<string, string>();
  for (const data of elementsOf(root).filter((el) => el.name === 'data')) {
    const name = nameOf(data);
    const folded = dotnetName(name);
    const first = seen.get(folded);
    if (first !== undefined) {
      const other = named.get(folded)!;
      throw new FormatError(
        ['body', 'line', data.line],
        other === name ? `${name} appears twice (lines ${first} and ${data.line})` : `${other} and ${name} are one resource to .NET, whose names ignore case (lines ${first} and ${data.line})`,
      );
    }
    seen.set(folded, data.line);
    named.set(folded, name);
    if (!isString(data)) nonString.push(name);
    else if (hasControlCharacters(name)) controlCharacters.push({ key: name, line: data.line });
    else {
      const { value, comment } = partsOf(data, name);
      const description = comment ? textOf(comment) : '';
      entries.push(makeEntry(name, value ? textOf(value) : '', ['body', 'line', data.line], description === '' ? undefined : description));
    }
  }
  return { entries, warnings: [...nonStringWarnings(nonString), ...controlCharacterWarnings(controlCharacters, 'resource', 'resources')] };
}

/** Text for <value> or <comment>; whitespace alone as CDATA, which MSBuild on .NET keeps (dotnet/msbuild#7074). */
const textXml = (text: string) => (/^[ \t\n]+$/.test(text) ? `<![CDATA[${text}]]>` : escapeXmlText(text));

function dataXml(entry: Entry): string[] {
  assertXmlChars(entry.key, entry.key, 'key');
  assertXmlChars(entry.value, entry.key);
  const comment = withoutNonXmlChars(entry.description ?? '');
  return [
    `  <data name="${escapeXmlAttr(entry.key)}" xml:space="preserve">`,
    entry.value === '' ? '    <value />' : `    <value>${textXml(entry.value)}</value>`,
    ...(comment === '' ? [] : [`    <comment>${textXml(comment)}</comment>`]),
    '  </data>',
  ];
}

/** Keys that differ only in case cannot both be written: .NET would keep one of them (found by review). */
function assertDistinctNames(entries: readonly Entry[]): void {
  const byName = new Map<string, string>();
  for (const entry of entries) {
    const other = byName.get(dotnetName(entry.key));
    if (other !== undefined) throw new FormatError(['body', entry.key], `${other} and ${entry.key} are one resource to .NET, whose names ignore case: rename one of them`);
    byName.set(dotnetName(entry.key), entry.key);
  }
}

function serialize(entries: readonly Entry[]): string {
  const sorted = sortedEntries(entries);
  assertDistinctNames(sorted);
  return [HEADER, ...sorted.flatMap(dataXml), '</root>'].join('\n');
}

export const resxCodec: FormatCodec = {
  id: 'resx',
  extension: 'resx',
  contentType: 'application/xml; charset=utf-8',
  needsSource: false,
  parse: (body) => parse(body),
  serialize: (entries) => encodeText(serialize(entries)),
};
