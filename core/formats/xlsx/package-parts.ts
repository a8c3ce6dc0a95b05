// The parts of an .xlsx package (Open Packaging Conventions) as the reader takes them: a part's
// text, its elements of a name a few at a time (xml/element-spans.ts: a sheet unpacks to tens of
// MiB, which readXml must not hold as one tree), the relationships of a .rels part, and the part a
// relationship's target names. Names are compared without their namespace prefix, so transitional
// and strict OOXML, and writers that prefix SpreadsheetML, read alike. A problem inside a part is
// named with the part: its lines are no lines of the uploaded file.
import { FormatError } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { elementsOf, readXml, type XmlElement } from '../xml/read-xml.ts';
import { elementSpans, type ElementSpan } from '../xml/element-spans.ts';
import { localName } from '../xml/local-name.ts';

export type Relationship = { type: string; part: string };

/**
 * The most XML one element read on its own may have (a row of a sheet, a shared string): its tree
 * takes up to 75 times as much. A row of the table's four cells, each at Excel's limit of 32,767
 * characters, is under 1 MiB.
 */
const MAX_ELEMENT_BYTES = 2 * 1024 * 1024;
/**
 * Elements next to each other are read together, up to this much XML: one readXml call per small
 * element took twice as long, and larger batches, whose trees live longer, more garbage collection.
 */
const BATCH_BYTES = 16 * 1024;

export const childrenNamed = (element: XmlElement, name: string): XmlElement[] => elementsOf(element).filter((child) => localName(child.name) === name);

/** The text directly inside an element (a <t> or a <v>). */
export const textIn = (element: XmlElement): string => element.children.reduce((text, child) => (child.kind === 'text' ? text + child.text : text), '');

/** A part's problem, named with the part (and the place in it, when known). */
export const partError = (part: string, msg: string, cause?: unknown): FormatError => new FormatError(['body'], `${part}: ${msg}`, { cause });

/** A part's text: UTF-8, as every SpreadsheetML writer writes it. */
export function partText(part: string, bytes: Uint8Array): string {
  try {
    return decodeUtf8(bytes);
  } catch (error) {
    if (error instanceof FormatError) throw partError(part, `${error.msg}${error.loc[1] === 'line' ? ` (line ${String(error.loc[2])})` : ''}`, error);
    throw error;
  }
}

/**
 * The elements of a part named `name` (within `span`'s content, if given), read as XML a few at a
 * time; `where` says where a problem is ("in the rows after row 7").
 */
export function* partElements(part: string, text: string, name: string, within?: ElementSpan, where?: () => string): Generator<XmlElement> {
  const fail = (msg: string): never => {
    throw partError(where ? `${part}, ${where()}` : part, msg);
  };
  const read = (from: number, to: number): XmlElement[] => {
    try {
      return childrenNamed(readXml(`<batch>${text.slice(from, to)}</batch>`), name);
    } catch (error) {
      if (error instanceof FormatError) fail(error.msg);
      throw error;
    }
  };
  let start = -1;
  let end = -1;
  for (const span of elementSpans(text, name, fail, within?.contentStart, within?.contentEnd)) {
    if (span.end - span.start > MAX_ELEMENT_BYTES) fail(`a <${name}> of more than ${MAX_ELEMENT_BYTES / 2 ** 20} MiB of XML is not read`);
    if (start !== -1 && span.end - start > BATCH_BYTES) {
      yield* read(start, end);
      start = -1;
    }
    if (start === -1) start = span.start;
    end = span.end;
  }
  if (start !== -1) yield* read(start, end);
}

/** The first element of a part named `name`, where it is. */
export function firstSpan(part: string, text: string, name: string): ElementSpan | undefined {
  const fail = (msg: string): never => {
    throw partError(part, msg);
  };
  return elementSpans(text, name, fail).next().value ?? undefined;
}

/** The part a target names, relative to the folder of the part `from` (or absolute: `/xl/worksheets/sheet1.xml`). */
function partPath(from: string, target: string): string {
  const path = target.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') path.pop();
    else if (segment !== '.' && segment !== '') path.push(segment);
  }
  return path.join('/');
}

/**
 * The relationships of the part `from`, read from its .rels part, by Id, each with the last
 * segment of its type's URI (`worksheet`, `sharedStrings`); targets outside the package are none.
 */
export function relationships(rels: string, text: string, from: string): Map<string, Relationship> {
  const found = new Map<string, Relationship>();
  for (const rel of partElements(rels, text, 'Relationship')) {
    const [id, type, target] = ['Id', 'Type', 'Target'].map((name) => rel.attrs.get(name));
    if (id === undefined || type === undefined || target === undefined || rel.attrs.get('TargetMode') === 'External') continue;
    found.set(id, { type: type.slice(type.lastIndexOf('/') + 1), part: partPath(from, target) });
  }
  return found;
}
