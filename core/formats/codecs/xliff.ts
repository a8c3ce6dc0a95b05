// XLIFF 1.2 in the shape Angular's `ng extract-i18n` writes: one <trans-unit id="key"> per key with
// <source> (the source language's value), <target> (this language's value) and <note
// from="description">. Reading takes each unit's <target> as the value; a unit without one, or
// with an empty one (what CAT tools write for untranslated units), is untranslated and skipped
// with a warning, unless the file's source-language is the imported language (then its <source>
// is the value: importing Angular's messages.xlf into the source language). An empty <target>
// whose state is translated, final or signed-off is the value '' (export writes an empty value
// so). Notes other than from="meaning" are the description. Units inside <group>s and several
// <file>s are read.
// Inline elements (<x id="INTERPOLATION"/>) are kept in the value as written (xml/inline-markup.ts).
//
// Writing needs the source language's values (ctx.source). Keys that have a source value but no
// value in this language are written too, with no <target>, ready for a translator.
import type { Entry, FormatCodec, SerializeContext } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { elementsOf, readXml, textOf, type XmlElement } from '../xml/read-xml.ts';
import { inlineXml, joinPieces, readInline } from '../xml/inline-markup.ts';
import { assertXmlChars, escapeXmlAttr, escapeXmlText, withoutNonXmlChars } from '../xml/escape-xml.ts';

export type Unit = { key: string; source: string | null; target: string | null; description: string | undefined; maxLength?: number | undefined };

/** The units to write: this language's entries plus source-only keys, by key. */
export function unitsToWrite(entries: readonly Entry[], ctx: SerializeContext): Unit[] {
  if (ctx.source === undefined) throw new FormatError(['body'], 'XLIFF export needs the source language (source=<language>) for its <source> text');
  const units = new Map<string, Unit>();
  for (const e of sortedEntries(entries)) {
    units.set(e.key, { key: e.key, source: ctx.source.values.get(e.key) ?? null, target: e.value, description: e.description ?? undefined });
  }
  for (const [key, source] of ctx.source.values) if (!units.has(key)) units.set(key, { key, source, target: null, description: undefined });
  const list = [...units.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const u of list) {
    const limit = ctx.limits?.get(u.key);
    if (limit !== undefined) u.maxLength = limit;
    assertXmlChars(u.key, u.key, 'key');
    if (u.source !== null) assertXmlChars(u.source, u.key, 'source value');
    if (u.target !== null) assertXmlChars(u.target, u.key);
  }
  return list;
}

export const sameLanguage = (a: string | undefined, b: string) => a !== undefined && a.replaceAll('_', '-').toLowerCase() === b.toLowerCase();

/**
 * The file's source language names the imported one: the same code, or the same language with a
 * region on one side only (Angular's extract-i18n writes source-language="en-US" for a project's
 * `en`). Two regions of a language stay two languages.
 */
export function sourceNames(fileLanguage: string | undefined, language: string): boolean {
  if (fileLanguage === undefined) return false;
  const a = fileLanguage.replaceAll('_', '-').toLowerCase();
  const b = language.toLowerCase();
  return a === b || a.startsWith(`${b}-`) || b.startsWith(`${a}-`);
}

/** The warning for a source text imported as another spelling of its language (en-US as en). */
export const sourceTakenAs = (fileLanguage: string | undefined, language: string, attribute: string): string[] =>
  fileLanguage !== undefined && !sameLanguage(fileLanguage, language) ? [`the file's ${attribute} is ${fileLanguage}; its sources were imported as ${language}`] : [];

/** Read results shared by both XLIFF versions; `emptyTargets` counts units skipped for an empty <target/>. */
export type UnitReader = { entries: Entry[]; warnings: string[]; seen: Map<string, number>; untranslated: number; emptyTargets: number };

/** `emptyTarget`: the unit has no value because its <target> is empty (counted apart from units with none). */
export function addUnit(out: UnitReader, id: string | undefined, unit: XmlElement, value: string | null, description: string | undefined, emptyTarget = false): void {
  if (id === undefined) throw new FormatError(['body', 'line', unit.line], `<${unit.name}> has no id`);
  const first = out.seen.get(id);
  if (first !== undefined) throw new FormatError(['body', 'line', unit.line], `id '${id}' appears twice (lines ${first} and ${unit.line})`);
  out.seen.set(id, unit.line);
  if (value === null) {
    if (emptyTarget) out.emptyTargets++;
    else out.untranslated++;
    return;
  }
  out.entries.push(makeEntry(id, value, ['body', 'line', unit.line], description === '' ? undefined : description));
}

export function finishUnits(out: UnitReader, element: string) {
  if (out.untranslated) out.warnings.push(`${out.untranslated} unit${out.untranslated === 1 ? ' has' : 's have'} no <${element}> and ${out.untranslated === 1 ? 'was' : 'were'} skipped`);
  const empty = out.emptyTargets;
  if (empty) out.warnings.push(`${empty} untranslated unit${empty === 1 ? ' was' : 's were'} skipped (empty <${element}>)`);
  return { entries: out.entries, warnings: out.warnings };
}

export const inlineValue = (element: XmlElement | undefined): string | null => (element === undefined ? null : joinPieces(readInline(element)));

export function checkRoot(root: XmlElement, wantMajor: '1' | '2'): void {
  if (root.name !== 'xliff') throw new FormatError(['body', 'line', root.line], `expected an <xliff> document, found <${root.name}>`);
  const version = root.attrs.get('version') ?? '';
  if (!version.startsWith(`${wantMajor}.`)) {
    const use = version.startsWith('2.') ? 'xliff2' : 'xliff';
    throw new FormatError(['body', 'line', root.line], `this is XLIFF ${version || 'without a version'}; ${version ? `use format=${use}` : `expected version ${wantMajor}.x`}`);
  }
}

/**
 * XLIFF 1.2 <target state> values that say the target is a translation, so an empty one is the
 * empty string (a deliberate value, such as a suffix German leaves out) rather than a unit not yet
 * translated. `needs-review-*` and the states before translation are not.
 */
const TRANSLATED_STATES = new Set(['translated', 'final', 'signed-off']);
/** The state export writes on the <target> of an empty value (the only target it gives a state). */
const EMPTY_TARGET_STATE = 'translated';

const descriptionOf = (unit: XmlElement): string | undefined => {
  const notes = elementsOf(unit).filter((e) => e.name === 'note' && e.attrs.get('from') !== 'meaning');
  return notes.length ? notes.map(textOf).join('\n') : undefined;
};

function parse(body: Uint8Array, language: string) {
  const root = readXml(decodeUtf8(body));
  checkRoot(root, '1');
  const out: UnitReader = { entries: [], warnings: [], seen: new Map(), untranslated: 0, emptyTargets: 0 };
  const skipped: string[] = [];
  for (const file of elementsOf(root).filter((e) => e.name === 'file')) {
    const sourceLanguage = file.attrs.get('source-language');
    const targetLanguage = file.attrs.get('target-language');
    if (targetLanguage !== undefined && !sameLanguage(targetLanguage, language)) {
      out.warnings.push(`the file's target-language is ${targetLanguage}; its targets were imported as ${language}`);
    }
    const sourceIsValue = targetLanguage === undefined && sourceNames(sourceLanguage, language);
    if (sourceIsValue) out.warnings.push(...sourceTakenAs(sourceLanguage, language, 'source-language'));
    const walk = (parent: XmlElement) => {
      for (const el of elementsOf(parent)) {
        if (el.name === 'group') walk(el);
        else if (el.name === 'trans-unit') {
          const id = el.attrs.get('id');
          if (el.attrs.get('translate') === 'no') {
            skipped.push(id ?? `line ${el.line}`);
            continue;
          }
          const children = elementsOf(el);
          // CAT tools write an empty <target/> (state="needs-translation") for a unit not yet
          // translated: it is no translation, and must not overwrite the stored one with ''. One
          // whose state says it is translated (what tms writes for an empty value) is the value ''.
          const targetElement = children.find((c) => c.name === 'target');
          const written = inlineValue(targetElement);
          const emptyUntranslated = written === '' && !TRANSLATED_STATES.has(targetElement?.attrs.get('state') ?? '');
          const target = emptyUntranslated ? null : written;
          const source = inlineValue(children.find((c) => c.name === 'source'));
          const value = target ?? (sourceIsValue ? source : null);
          addUnit(out, id, el, value, descriptionOf(el), emptyUntranslated);
        }
      }
    };
    for (const part of elementsOf(file)) if (part.name === 'body') walk(part);
  }
  if (skipped.length) out.warnings.push(`units marked translate="no" were skipped: ${skipped.join(', ')}`);
  return finishUnits(out, 'target');
}

function serialize(entries: readonly Entry[], ctx: SerializeContext): string {
  const units = unitsToWrite(entries, ctx);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
    `  <file source-language="${escapeXmlAttr(ctx.source?.language ?? '')}" target-language="${escapeXmlAttr(ctx.language)}" datatype="plaintext" original="ng2.template">`,
    '    <body>',
  ];
  for (const u of units) {
    // A key's character limit, for the CAT tool to count against (XLIFF 1.2 section 2.5.2; a plural's
    // ICU text is one unit here, while tms counts its longest branch: docs/formats.md).
    const width = u.maxLength === undefined ? '' : ` maxwidth="${u.maxLength}" size-unit="char"`;
    lines.push(`      <trans-unit id="${escapeXmlAttr(u.key)}" datatype="html"${width}>`);
    lines.push(`        <source>${inlineXml(u.source ?? '')}</source>`);
    // An empty value is marked translated: an empty <target> without a state is untranslated.
    if (u.target === '') lines.push(`        <target state="${EMPTY_TARGET_STATE}"></target>`);
    else if (u.target !== null) lines.push(`        <target>${inlineXml(u.target)}</target>`);
    if (u.description) lines.push(`        <note priority="1" from="description">${escapeXmlText(withoutNonXmlChars(u.description))}</note>`);
    lines.push('      </trans-unit>');
  }
  lines.push('    </body>', '  </file>', '</xliff>');
  return lines.join('\n');
}

export const xliffCodec: FormatCodec = {
  id: 'xliff',
  extension: 'xlf',
  contentType: 'application/xliff+xml; charset=utf-8',
  needsSource: true,
  parse: (body, ctx) => parse(body, ctx.language),
  serialize: (entries, ctx) => encodeText(serialize(entries, ctx)),
};
