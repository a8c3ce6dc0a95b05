// gettext PO. The key is the msgid, or `msgctxt|msgid` when the message has a context (GNOME's
// old Q_() convention); on export a key is split at its first '|', so every key comes back as it
// went out. `#.` extracted comments are the description; translator comments, references and
// flags are dropped. Untranslated messages (empty msgstr) and fuzzy ones are skipped with a
// warning, as msgfmt skips them; obsolete (#~) messages are ignored. A msgid (or msgctxt) with a
// line break, tab or other control character cannot be a tms key: skipped with a warning too.
// Imported into the source language, an empty msgstr is the msgid (a template, .pot); so export
// writes an empty value (or a plural of empty forms) `#, fuzzy`, skipped on import in every
// language: it stays empty, and the message is still there for `tms push --remove-unused`.
//
// Plurals: msgid_plural with msgstr[n] becomes one ICU plural. Which CLDR category each msgstr[n]
// holds comes from the file's Plural-Forms formula and the language's CLDR rules
// (plural/gettext-plural-forms.ts). Languages whose whole numbers never reach CLDR's `other`
// (ru, pl, uk...) get `other` copied from the last msgstr, since ICU requires it, unless the
// header has a slot no whole number reaches (Transifex's 4-form headers): that slot holds the
// category only fractions take (`other`; cs `many`), or is dropped with a warning. Export writes
// the customary Plural-Forms for the language and a plural message when the ICU value's categories
// fit its slots (plus an `other` equal to the last one when `other` has no slot); a slot's category
// the value lacks gets its `other` text (gettext has no fallback; an import compares values by what
// they say, plural/every-category.ts). msgid_plural repeats the msgid, since the source language's
// plural is not at hand.
import type { Entry, FormatCodec } from '../types.ts';
import { FormatError } from '../format-error.ts';
import { decodeCharset } from '../text/decode.ts';
import { encodeText } from '../text/encode.ts';
import { makeEntry } from '../entries/make-entry.ts';
import { controlCharacterWarnings, hasControlCharacters, type SkippedKey } from '../entries/control-character-keys.ts';
import { sortedEntries } from '../entries/sorted-entries.ts';
import { readPo, type PoMessage } from '../po/read-po.ts';
import { fractionCategories, largeNumberPluralFormsFor, parsePluralForms, pluralFormsFor, slotCategories, type PluralForms } from '../plural/gettext-plural-forms.ts';
import { pluralToIcu, pluralToNative } from '../plural/native-plural.ts';
import { printfDialect } from '../plural/dialects.ts';
import type { PluralCategory } from '../plural/categories.ts';

const DIALECT = printfDialect('d');
const CONTEXT_SEPARATOR = '|';

/** The charset a PO file declares in its header and the line that says so, read before decoding (the header is ASCII). */
function declaredCharset(body: Uint8Array): { charset: string; line: number } {
  const head = new TextDecoder('latin1').decode(body.subarray(0, 4096));
  const match = /charset=([A-Za-z0-9_.:-]+)/.exec(head);
  if (!match) return { charset: 'utf-8', line: 1 };
  return { charset: match[1] ?? 'utf-8', line: head.slice(0, match.index).split('\n').length };
}

function headerFields(header: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of header.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return fields;
}

type SlotMap = { categories: (PluralCategory | null)[]; forms: PluralForms };

function slotsFor(header: PoMessage | undefined, language: string, warnings: string[]): SlotMap | null {
  const declared = header === undefined ? undefined : headerFields(header.strings[0] ?? '').get('plural-forms');
  let forms: PluralForms;
  if (declared !== undefined) {
    try {
      forms = parsePluralForms(declared);
    } catch (error) {
      throw new FormatError(['body', 'line', header?.line ?? 1], `invalid Plural-Forms header: ${(error as Error).message}`);
    }
  } else {
    const standard = pluralFormsFor(language);
    if (standard === null) return null;
    forms = standard.forms;
    warnings.push(`no Plural-Forms header; plural messages were read with ${standard.header}`);
  }
  const { categories, counts } = slotCategories(forms, language);
  // Two slots the header tells apart but the language's CLDR rules do not: the one most numbers
  // use keeps the category.
  const clashes: string[] = [];
  const winners = new Map<PluralCategory, number>();
  categories.forEach((c, i) => {
    if (c === null) return;
    const other = winners.get(c);
    if (other === undefined) winners.set(c, i);
    else {
      clashes.push(`msgstr[${i}] and msgstr[${other}] are both '${c}'`);
      if ((counts[i] ?? 0) > (counts[other] ?? 0)) winners.set(c, i);
    }
  });
  const resolved = categories.map((c, i) => (c !== null && winners.get(c) === i ? c : null));
  if (clashes.length) warnings.push(`the Plural-Forms header does not match ${language}'s plural rules (${clashes.join('; ')}); the form used for most numbers was kept`);
  // A slot no whole number reaches is the fractions' form (Transifex writes nplurals=4 for pl, ru,
  // uk and cs, a slot for CLDR's `other`, cs `many`): it holds the one category only fractions take.
  const unreached = counts.flatMap((count, i) => (count === 0 ? [i] : []));
  const spare = fractionCategories(language).filter((c) => !resolved.includes(c));
  const [slot] = unreached;
  const [category] = spare;
  if (unreached.length === 1 && spare.length === 1 && slot !== undefined && category !== undefined) resolved[slot] = category;
  else if (unreached.length) {
    const dropped = unreached.map((i) => `msgstr[${i}]`).join(', ');
    warnings.push(`no whole number reaches ${dropped} under the Plural-Forms header, and which of ${language}'s plural categories it holds is unclear; it was dropped`);
  }
  return { categories: resolved, forms };
}

function parse(body: Uint8Array, language: string, isSource: boolean) {
  const declared = declaredCharset(body);
  const messages = readPo(decodeCharset(body, declared.charset, declared.line));
  const warnings: string[] = [];
  const header = messages.find((m) => m.id === '' && m.context === undefined);
  if (header) {
    const declared = headerFields(header.strings[0] ?? '').get('language');
    if (declared && declared.replaceAll('_', '-').toLowerCase() !== language.toLowerCase()) {
      warnings.push(`the file's Language is ${declared}; its messages were imported as ${language}`);
    }
  }
  let slots: SlotMap | null | undefined;
  const entries: Entry[] = [];
  const seen = new Map<string, number>();
  let untranslated = 0;
  let fuzzy = 0;
  const unstorable: SkippedKey[] = [];
  for (const m of messages) {
    if (m === header) continue;
    const key = m.context === undefined ? m.id : `${m.context}${CONTEXT_SEPARATOR}${m.id}`;
    const first = seen.get(key);
    if (first !== undefined) throw new FormatError(['body', 'line', m.line], `the message ${JSON.stringify(key)} appears twice (lines ${first} and ${m.line})`);
    seen.set(key, m.line);
    const empty = m.strings.every((s) => s === '');
    if (m.flags.includes('fuzzy')) {
      // An empty fuzzy message holds no guess to review: untranslated. Export writes an empty value
      // so, which keeps it from being read as its msgid below.
      if (empty) untranslated++;
      else fuzzy++;
      continue;
    }
    if (empty) {
      // In gettext the msgid is the source text: a template (.pot) or a source-language .po left
      // empty, imported into the source language, is its msgids (a plural: msgid and msgid_plural).
      if (isSource && m.id !== '' && !hasControlCharacters(key)) {
        const description = m.extracted.length ? m.extracted.join('\n') : undefined;
        const loc = ['body', 'line', m.line];
        const value = m.idPlural === undefined ? m.id : pluralToIcu({ arg: 'count', ordinal: false, forms: new Map([['one', m.id], ['other', m.idPlural]]) }, DIALECT);
        entries.push(makeEntry(key, value, loc, description));
        continue;
      }
      untranslated++;
      continue;
    }
    if (hasControlCharacters(key)) {
      unstorable.push({ key, line: m.line });
      continue;
    }
    const description = m.extracted.length ? m.extracted.join('\n') : undefined;
    const loc = ['body', 'line', m.line];
    if (m.idPlural === undefined) {
      entries.push(makeEntry(key, m.strings[0] ?? '', loc, description));
      continue;
    }
    slots ??= slotsFor(header, language, warnings);
    if (slots === null) throw new FormatError(loc, `no Plural-Forms header, and no standard one is known for ${language}`);
    const forms = new Map<string, string>();
    m.strings.forEach((text, i) => {
      const category = slots?.categories[i];
      if (category) forms.set(category, text);
    });
    if (m.strings.length !== slots.categories.length) {
      warnings.push(`line ${m.line}: ${m.strings.length} msgstr forms where Plural-Forms has ${slots.categories.length}`);
    }
    if (!forms.has('other')) {
      const last = slots.categories.findLast((c, i) => c !== null && i < m.strings.length);
      if (!last) throw new FormatError(loc, 'no msgstr[n] of this message matches a plural category of the language');
      forms.set('other', forms.get(last) ?? '');
    }
    entries.push(makeEntry(key, pluralToIcu({ arg: 'count', ordinal: false, forms }, DIALECT), loc, description));
  }
  if (untranslated) warnings.push(`${untranslated} untranslated message${untranslated === 1 ? ' was' : 's were'} skipped (empty msgstr)`);
  if (fuzzy) warnings.push(`${fuzzy} fuzzy message${fuzzy === 1 ? ' was' : 's were'} skipped`);
  warnings.push(...controlCharacterWarnings(unstorable, 'message', 'messages'));
  return { entries, warnings };
}

const C_ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\u0007': '\\a', '\b': '\\b', '\f': '\\f', '\v': '\\v' };

const quote = (s: string) =>
  `"${s.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => C_ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)}"`;

/** A keyword and its string, split after each newline the way gettext's tools write it. */
function field(keyword: string, s: string): string[] {
  const parts = s.split(/(?<=\n)/);
  if (parts.length <= 1 || (parts.length === 2 && parts[1] === '')) return [`${keyword} ${quote(s)}`];
  return [`${keyword} ""`, ...parts.filter((p) => p !== '').map(quote)];
}

/**
 * msgstr[n] texts for a plural value, or null to write the ICU text as a plain msgstr. A slot's
 * category the value lacks gets its `other` text, which is what ICU shows for it: gettext has no
 * fallback, and a plain msgstr holding ICU text is what ngettext() would show.
 */
function pluralStrings(value: string, categories: readonly PluralCategory[]): string[] | null {
  const native = pluralToNative(value, DIALECT, 'count');
  if (native === null || native.ordinal) return null;
  const other = native.forms.get('other');
  const strings: string[] = [];
  for (const c of categories) {
    const text = native.forms.get(c) ?? other;
    if (text === undefined) return null;
    strings.push(text);
  }
  for (const [selector, text] of native.forms) {
    if (categories.includes(selector as PluralCategory)) continue;
    // `other` with no slot of its own comes back as a copy of the last slot, so it must be one.
    if (selector !== 'other' || text !== strings.at(-1)) return null;
  }
  return strings;
}

/**
 * The customary Plural-Forms, or for fr, es, it, pt and ca the 3-form one with a slot for the
 * millions' `many` when a value of the file has that branch (else it could only be written as ICU
 * text, which ngettext() shows as is); the file's other plurals then repeat their `other` there.
 */
function fileForms(entries: readonly Entry[], language: string) {
  const standard = pluralFormsFor(language);
  const large = largeNumberPluralFormsFor(language);
  if (standard === null || large === null) return standard;
  const needed = entries.some((e) => pluralStrings(e.value, standard.categories) === null && pluralStrings(e.value, large.categories) !== null);
  return needed ? large : standard;
}

function serialize(entries: readonly Entry[], language: string, pluralLanguage = language): string {
  const standard = fileForms(entries, pluralLanguage);
  const lines = [
    'msgid ""',
    'msgstr ""',
    quote(`Language: ${language.replaceAll('-', '_')}\n`),
    quote('MIME-Version: 1.0\n'),
    quote('Content-Type: text/plain; charset=UTF-8\n'),
    quote('Content-Transfer-Encoding: 8bit\n'),
    quote(`Plural-Forms: ${standard?.header ?? 'nplurals=1; plural=0;'}\n`),
  ];
  for (const e of sortedEntries(entries)) {
    const cut = e.key.indexOf(CONTEXT_SEPARATOR);
    const context = cut === -1 ? undefined : e.key.slice(0, cut);
    const id = cut === -1 ? e.key : e.key.slice(cut + 1);
    if (context === undefined && id === '') throw new FormatError(['body', e.key], 'an empty key cannot be written: msgid "" is the PO header');
    lines.push('');
    if (e.description) for (const line of e.description.replace(/\r\n?/g, '\n').split('\n')) lines.push(line ? `#. ${line}` : '#.');
    const plural = standard ? pluralStrings(e.value, standard.categories) : null;
    // An empty msgstr is untranslated, and in the source language it would read back as the msgid
    // (a template's message): an empty value is written fuzzy, which every reader skips.
    if ((plural ?? [e.value]).every((s) => s === '')) lines.push('#, fuzzy');
    if (context !== undefined) lines.push(...field('msgctxt', context));
    lines.push(...field('msgid', id));
    if (plural) {
      lines.push(...field('msgid_plural', id));
      plural.forEach((text, i) => lines.push(...field(`msgstr[${i}]`, text)));
    } else lines.push(...field('msgstr', e.value));
  }
  return lines.join('\n');
}

export const poCodec: FormatCodec = {
  pluralsOverCount: true,
  id: 'po',
  extension: 'po',
  contentType: 'text/x-gettext-translation; charset=utf-8',
  needsSource: false,
  keysAreText: true,
  parse: (body, ctx) => parse(body, ctx.language, ctx.isSource === true),
  serialize: (entries, ctx) => encodeText(serialize(entries, ctx.language, ctx.plurals)),
};
