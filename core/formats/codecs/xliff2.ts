// XLIFF 2.0 in the shape Angular's `ng extract-i18n --format xlf2` writes: <unit id="key"> with
// <notes><note category="description"> and one <segment> holding <source> and <target>. Reading
// joins the targets of a unit's segments (and the text of its <ignorable>s) in order; a unit with
// no target, or a segment's empty <target/> (untranslated, state="initial"), is skipped unless the
// file has no trgLang and its srcLang is the imported language. An empty <target/> in a segment
// whose state is translated, reviewed or final is the value '' (export writes an empty value so).
// Notes other than category="meaning" and "location" are the description. Inline elements (<ph/>,
// <pc>...</pc>) are kept in the value as written. Writing needs the source language's values and
// writes source-only keys without a <target>, as xliff does.
import type { Entry, FormatCodec, SerializeContext } from '../types.ts';
import { decodeUtf8 } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { elementsOf, readXml, textOf, type XmlElement } from '../xml/read-xml.ts';
import { inlineXml } from '../xml/inline-markup.ts';
import { escapeXmlAttr, escapeXmlText, withoutNonXmlChars } from '../xml/escape-xml.ts';
import { addUnit, checkRoot, finishUnits, inlineValue, sameLanguage, sourceNames, sourceTakenAs, unitsToWrite, type UnitReader } from './xliff.ts';

const NOT_DESCRIPTION = new Set(['meaning', 'location']);
/** <segment state> values after translation: an empty <target> there is the value ''. */
const TRANSLATED_STATES = new Set(['translated', 'reviewed', 'final']);

function descriptionOf(unit: XmlElement): string | undefined {
  const notes = elementsOf(unit)
    .filter((e) => e.name === 'notes')
    .flatMap(elementsOf)
    .filter((n) => n.name === 'note' && !NOT_DESCRIPTION.has(n.attrs.get('category') ?? ''));
  return notes.length ? notes.map(textOf).join('\n') : undefined;
}

/** A unit's text in one language: every segment's part in order, or null if a segment lacks it. */
function unitText(unit: XmlElement, part: 'source' | 'target'): string | null {
  let out = '';
  let segments = 0;
  for (const el of elementsOf(unit)) {
    if (el.name !== 'segment' && el.name !== 'ignorable') continue;
    const children = elementsOf(el);
    const text = inlineValue(children.find((c) => c.name === part)) ?? (el.name === 'ignorable' ? inlineValue(children.find((c) => c.name === 'source')) : null);
    if (text === null) return null;
    out += text;
    if (el.name === 'segment') segments++;
  }
  return segments ? out : null;
}

/**
 * Whether a segment's <target> is empty where its <source> is not: CAT tools write <target/> for
 * a segment not yet translated (state="initial"), so the unit has no translation. A segment whose
 * state says it is translated (what export writes for an empty value) holds the empty string.
 */
function hasEmptyTarget(unit: XmlElement): boolean {
  return elementsOf(unit).some((el) => {
    if (el.name !== 'segment' || TRANSLATED_STATES.has(el.attrs.get('state') ?? '')) return false;
    const children = elementsOf(el);
    return inlineValue(children.find((c) => c.name === 'target')) === '' && inlineValue(children.find((c) => c.name === 'source')) !== '';
  });
}

function parse(body: Uint8Array, language: string) {
  const root = readXml(decodeUtf8(body));
  checkRoot(root, '2');
  const out: UnitReader = { entries: [], warnings: [], seen: new Map(), untranslated: 0, emptyTargets: 0 };
  const trgLang = root.attrs.get('trgLang');
  if (trgLang !== undefined && !sameLanguage(trgLang, language)) out.warnings.push(`the file's trgLang is ${trgLang}; its targets were imported as ${language}`);
  const srcLang = root.attrs.get('srcLang');
  const sourceIsValue = trgLang === undefined && sourceNames(srcLang, language);
  if (sourceIsValue) out.warnings.push(...sourceTakenAs(srcLang, language, 'srcLang'));
  const skipped: string[] = [];
  const walk = (parent: XmlElement) => {
    for (const el of elementsOf(parent)) {
      if (el.name === 'group') walk(el);
      else if (el.name === 'unit') {
        const id = el.attrs.get('id');
        if (el.attrs.get('translate') === 'no') {
          skipped.push(id ?? `line ${el.line}`);
          continue;
        }
        const empty = hasEmptyTarget(el);
        const target = empty ? null : unitText(el, 'target');
        addUnit(out, id, el, target ?? (sourceIsValue ? unitText(el, 'source') : null), descriptionOf(el), empty);
      }
    }
  };
  for (const file of elementsOf(root).filter((e) => e.name === 'file')) walk(file);
  if (skipped.length) out.warnings.push(`units marked translate="no" were skipped: ${skipped.join(', ')}`);
  return finishUnits(out, 'target');
}

function serialize(entries: readonly Entry[], ctx: SerializeContext): string {
  const units = unitsToWrite(entries, ctx);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    `<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="${escapeXmlAttr(ctx.source?.language ?? '')}" trgLang="${escapeXmlAttr(ctx.language)}">`,
    '  <file id="ngi18n" original="ng.template">',
  ];
  for (const u of units) {
    lines.push(`    <unit id="${escapeXmlAttr(u.key)}">`);
    if (u.description) {
      lines.push('      <notes>', `        <note category="description">${escapeXmlText(withoutNonXmlChars(u.description))}</note>`, '      </notes>');
    }
    // An empty value's segment is marked translated: an empty <target> in an `initial` one (the
    // default) is a segment not yet translated.
    lines.push(u.target === '' ? '      <segment state="translated">' : '      <segment>', `        <source>${inlineXml(u.source ?? '')}</source>`);
    if (u.target !== null) lines.push(`        <target>${inlineXml(u.target)}</target>`);
    lines.push('      </segment>', '    </unit>');
  }
  lines.push('  </file>', '</xliff>');
  return lines.join('\n');
}

export const xliff2Codec: FormatCodec = {
  id: 'xliff2',
  extension: 'xlf',
  contentType: 'application/xliff+xml; charset=utf-8',
  needsSource: true,
  parse: (body, ctx) => parse(body, ctx.language),
  serialize: (entries, ctx) => encodeText(serialize(entries, ctx)),
};
