// A glossary as TBX (ISO 30042), the term-base exchange format of CAT tools and term bases
// (Trados MultiTerm, memoQ, Phrase, Crowdin). Reading takes both editions: TBX 2008 (`<martif>`,
// `<termEntry>`, `<langSet>`, `<tig>`/`<ntig>`) and TBX 2019 (`<tbx>`, `<conceptEntry>`,
// `<langSec>`, `<termSec>`), in UTF-8 or UTF-16. Each entry's term in the project's source language
// is the glossary's term, the first term of each other language its translation; the definition
// (`<descrip type="definition">`, else a `<note>`) its description. A term whose administrative
// status says not to use it (deprecated, superseded, forbidden) is read apart: the entry's first
// such term in the source language is a forbidden term, with the first such term of each other
// language as its translations, beside the entry's term to use (docs/decisions.md, "Forbidden
// terms"). Writing gives TBX-Basic 2008, which every tool above reads; a forbidden term's terms carry
// the status deprecatedTerm-admn-sts; the two flags, which TBX has no standard category for, are
// `x-caseSensitive` and `x-doNotTranslate` term notes, written only when set.
import { FormatError } from '../../formats/format-error.ts';
import { decodeUnicode } from '../../formats/text/decode-unicode.ts';
import { encodeText } from '../../formats/text/encode.ts';
import { escapeXmlAttr, escapeXmlText, withoutNonXmlChars } from '../../formats/xml/escape-xml.ts';
import { elementsOf, readXml, type XmlElement } from '../../formats/xml/read-xml.ts';
import type { GlossaryTerm } from '../schemas.ts';
import { fold } from '../fold.ts';
import {
  describeTerm,
  fileTerm,
  flagValue,
  languageReader,
  refusals,
  translationProblem,
  type FileTerm,
  type GlossaryFile,
  type ProjectLanguages,
} from './glossary-file.ts';

/** The name without a namespace prefix (`tbx:termEntry` is termEntry). */
const local = (e: XmlElement) => e.name.slice(e.name.indexOf(':') + 1);
const children = (e: XmlElement, ...names: string[]) => elementsOf(e).filter((c) => names.includes(local(c)));

/** All the text inside an element, its inline markup (`<hi>`) read through, trimmed. */
function allText(e: XmlElement): string {
  let out = '';
  for (const child of e.children) {
    if (child.kind === 'text') out += child.text;
    else if (child.kind === 'element') out += allText(child);
  }
  return out.trim();
}
/**
 * A term's or a note's text: a line break or tab with the spaces around it is one space, as a
 * pretty-printed term spans lines. Other spaces are the term's own: two spaces, a no-break space in
 * "Acme Cloud", an ideographic space all stay (collapsed, the export of such a term read back as
 * another term).
 */
const plainText = (e: XmlElement) => allText(e).replace(/[ ]*[\t\r\n][ \t\r\n]*/g, ' ');

/** The elements named `name` in `e`, looked for through the `inside` wrappers (a term in ntig's termGrp). */
function first(e: XmlElement, name: string, inside: readonly string[]): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of elementsOf(e)) {
    if (local(c) === name) out.push(c);
    else if (inside.includes(local(c))) out.push(...first(c, name, inside));
  }
  return out;
}

/** What holds one term of a language with its notes: tig, ntig (through its termGrp), termSec. */
const TERM_HOLDERS = ['tig', 'ntig', 'termSec'];

/**
 * Whether a term's administrative status (TBX-Basic's `administrativeStatus`, TBX 2008's older
 * `normativeAuthorization`) says not to use it: deprecatedTerm-admn-sts and supersededTerm-admn-sts
 * in TBX-Basic's picklist, and the plain words term bases write (deprecated, superseded, forbidden,
 * notRecommended, obsolete). Preferred and admitted terms, and a term without a status, are to use.
 */
function avoided(holder: XmlElement): boolean {
  return first(holder, 'termNote', ['termGrp']).some((note) => {
    const type = note.attrs.get('type');
    if (type !== 'administrativeStatus' && type !== 'normativeAuthorization') return false;
    const status = plainText(note).toLowerCase().replace(/-admn-sts$/, '').replace(/[\s_-]+/g, '');
    return ['deprecatedterm', 'deprecated', 'supersededterm', 'superseded', 'forbidden', 'forbiddenterm', 'notrecommended', 'obsolete'].includes(status);
  });
}

type SectionTerm = { term: string; holder: XmlElement; avoided: boolean };

/** Whether the term has an administrative status at all (a file that says "preferred" says it is not forbidden). */
const hasStatus = (holder: XmlElement) => first(holder, 'termNote', ['termGrp']).some((n) => ['administrativeStatus', 'normativeAuthorization'].includes(n.attrs.get('type') ?? ''));

/** A language section's terms, each with the holder of its notes and its standing, in the order written (empty terms left out). */
function termsOf(section: XmlElement): SectionTerm[] {
  return children(section, ...TERM_HOLDERS)
    .map((holder) => ({ term: first(holder, 'term', ['termGrp']).map(plainText).find((t) => t !== '') ?? '', holder, avoided: avoided(holder) }))
    .filter((t) => t.term !== '');
}

/** The definition at an entry's or a language's level (inside a descripGrp too), else its note. */
function definitionOf(e: XmlElement): string | undefined {
  const descrips = [...children(e, 'descrip'), ...children(e, 'descripGrp').flatMap((g) => children(g, 'descrip'))];
  const definition = descrips.find((d) => d.attrs.get('type') === 'definition');
  // A description keeps its line breaks (the export writes them as they are).
  const text = definition ? allText(definition) : children(e, 'note').map(allText).find((t) => t !== '');
  return text === '' ? undefined : text;
}

export function readGlossaryTbx(body: Uint8Array, languages: ProjectLanguages): GlossaryFile {
  const root = readXml(decodeUnicode(body));
  const edition = local(root);
  if (edition !== 'martif' && edition !== 'tbx') {
    throw new FormatError(['body', 'line', root.line], `not a TBX file: its root element is <${root.name}>, expected <martif> (TBX 2008) or <tbx> (TBX 2019)`);
  }
  const entryName = edition === 'martif' ? 'termEntry' : 'conceptEntry';
  const entries = children(root, 'text').flatMap((t) => children(t, 'body')).flatMap((b) => children(b, entryName));
  const languageOf = languageReader(languages);
  const terms: FileTerm[] = [];
  const refused = refusals();
  const seen = new Map<string, number>();
  const skippedCodes = new Set<string>();
  let withoutSource = 0;
  let synonyms = 0;
  /** Entries with a term not to use in some language but none in the source language. */
  let avoidedWithoutSource = 0;
  /** Entries with a term to use in some language but only terms not to use in the source language. */
  let usedWithoutSource = 0;
  /** Terms not to use read already from an earlier entry. */
  let avoidedAgain = 0;
  /** Sections of a language an entry had already read (two de langSets; en-GB beside en). */
  let sectionsAgain = 0;
  for (const entry of entries) {
    const loc = ['body', 'line', entry.line];
    const refuse = (msg: string) => refused.refuse(loc, msg);
    const byLanguage = new Map<string, { section: XmlElement; terms: SectionTerm[] }>();
    for (const section of children(entry, 'langSet', 'langSec')) {
      const written = section.attrs.get('xml:lang') ?? '';
      const code = languageOf(written);
      if (code === null) {
        skippedCodes.add(written || '(none)');
        continue;
      }
      const found = termsOf(section);
      if (found.length === 0) continue;
      if (byLanguage.has(code)) {
        sectionsAgain++;
        continue;
      }
      // Synonyms: more than one term of one standing (a term to use beside one not to use is none).
      if (found.filter((t) => t.avoided).length > 1 || found.filter((t) => !t.avoided).length > 1) synonyms++;
      byLanguage.set(code, { section, terms: found });
    }
    const source = byLanguage.get(languages.source);
    if (source === undefined) {
      withoutSource++;
      continue;
    }
    // The term to use and the term not to use, each with the other languages' terms of its standing.
    for (const avoid of [false, true]) {
      const term = source.terms.find((t) => t.avoided === avoid);
      if (term === undefined) {
        // Terms of one standing in other languages, with none of it in the source to hang them on.
        if ([...byLanguage].some(([code, s]) => code !== languages.source && s.terms.some((t) => t.avoided === avoid))) {
          if (avoid) avoidedWithoutSource++;
          else usedWithoutSource++;
        }
        continue;
      }
      // A word not to use is often deprecated in several concepts ("Login" under "Sign in" and under
      // "Sign-in page"): read once, from its first entry, not refused as a term written twice.
      if (avoid && seen.has(fold(term.term))) {
        avoidedAgain++;
        continue;
      }
      const item = fileTerm(term.term, entry.line, seen, refuse);
      if (item === null) continue;
      const description = definitionOf(entry) ?? definitionOf(source.section);
      if (description !== undefined) describeTerm(item, description, refuse);
      // A status read is a flag the file gives: preferred or admitted is a term to use.
      if (avoid || hasStatus(term.holder)) item.forbidden = avoid;
      // The notes of the term read, not of its synonyms.
      for (const note of first(term.holder, 'termNote', ['termGrp'])) {
        const type = note.attrs.get('type');
        if (type !== 'x-caseSensitive' && type !== 'x-doNotTranslate') continue;
        const flag = flagValue(plainText(note));
        if (flag === null) refuse(`the ${type} note must be yes or no, not '${plainText(note)}'`);
        else if (flag !== undefined) {
          if (type === 'x-caseSensitive') item.caseSensitive = flag;
          else item.translatable = !flag;
        }
      }
      for (const [code, section] of byLanguage) {
        if (code === languages.source) continue;
        const text = section.terms.find((t) => t.avoided === avoid)?.term;
        if (text === undefined) continue;
        const wrong = translationProblem(text);
        if (wrong) refuse(`${code}: ${wrong}`);
        item.translations.set(code, text);
      }
      terms.push(item);
    }
  }
  const warnings: string[] = [];
  if (entries.length === 0) warnings.push(`the file has no <${entryName}> entries`);
  if (withoutSource) warnings.push(`${withoutSource} ${withoutSource === 1 ? 'entry has' : 'entries have'} no term in ${languages.source}, the project's source language: skipped`);
  if (skippedCodes.size) warnings.push(`languages not in the project, skipped: ${[...skippedCodes].sort().join(', ')}`);
  if (sectionsAgain) warnings.push(`${sectionsAgain} ${sectionsAgain === 1 ? 'entry has' : 'entries have'} a second section of one language (two langSets of de, or en-GB beside en): the first was read`);
  if (synonyms) warnings.push(`${synonyms} ${synonyms === 1 ? 'language section holds' : 'language sections hold'} more than one term: the first of each was read`);
  if (avoidedWithoutSource) warnings.push(`${avoidedWithoutSource} ${avoidedWithoutSource === 1 ? 'entry has' : 'entries have'} terms marked not to use (deprecated) in other languages but none in ${languages.source}: those terms were skipped, since a forbidden term is kept under its spelling in the source language`);
  if (usedWithoutSource) warnings.push(`${usedWithoutSource} ${usedWithoutSource === 1 ? 'entry has' : 'entries have'} terms to use in other languages but only terms marked not to use in ${languages.source}: those terms were skipped (add the entry's ${languages.source} term to use to import them)`);
  if (avoidedAgain) warnings.push(`${avoidedAgain} ${avoidedAgain === 1 ? 'term' : 'terms'} marked not to use ${avoidedAgain === 1 ? 'is' : 'are'} in more than one entry: each was read from its first entry`);
  return { terms, warnings, issues: refused.issues() };
}

/** TBX-Basic 2008: one termEntry per term, the source language's langSet first. */
export function writeGlossaryTbx(terms: readonly GlossaryTerm[], source: string, languages: readonly string[], title: string): Uint8Array {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">',
    `<martif type="TBX-Basic" xml:lang="${escapeXmlAttr(source)}">`,
    '  <martifHeader>',
    '    <fileDesc>',
    `      <sourceDesc><p>${escapeXmlText(withoutNonXmlChars(title))}</p></sourceDesc>`,
    '    </fileDesc>',
    '  </martifHeader>',
    '  <text>',
    '    <body>',
  ];
  const tig = (text: string, notes: string[] = []) => [`        <tig>`, `          <term>${escapeXmlText(text)}</term>`, ...notes, `        </tig>`];
  const DEPRECATED = '          <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>';
  for (const t of terms) {
    out.push(`      <termEntry id="t-${t.id}">`);
    if (t.description !== '') out.push(`        <descrip type="definition">${escapeXmlText(withoutNonXmlChars(t.description))}</descrip>`);
    const status = t.forbidden ? [DEPRECATED] : [];
    const notes = [
      ...status,
      ...(t.case_sensitive ? ['          <termNote type="x-caseSensitive">yes</termNote>'] : []),
      ...(t.translatable ? [] : ['          <termNote type="x-doNotTranslate">yes</termNote>']),
    ];
    out.push(`        <langSet xml:lang="${escapeXmlAttr(source)}">`, ...tig(t.term, notes).map((l) => `  ${l}`), '        </langSet>');
    for (const code of languages) {
      const text = t.translations[code];
      if (text === undefined) continue;
      out.push(`        <langSet xml:lang="${escapeXmlAttr(code)}">`, ...tig(text, status).map((l) => `  ${l}`), '        </langSet>');
    }
    out.push('      </termEntry>');
  }
  out.push('    </body>', '  </text>', '</martif>');
  return encodeText(out.join('\n'));
}
