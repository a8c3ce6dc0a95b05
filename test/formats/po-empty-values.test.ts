// gettext reads an empty msgstr in the source language as the msgid (a template, .pot): a
// source-language PO pulled with an empty value and pushed back stored the key name as the value
// (and charged a translation unit). Export now writes an empty value `#, fuzzy`, which import skips
// in every language.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import type { Entry } from '../../core/formats/types.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

function roundTrip(format: 'po', entries: Entry[], language: string, isSource = false) {
  const file = FORMATS[format].serialize(entries, { language });
  const parsed = FORMATS[format].parse(file, { language, isSource });
  const again = FORMATS[format].serialize(parsed.entries, { language });
  return { text: dec(file), parsed, again: dec(again) };
}


describe('po in the source language', () => {
  const header = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', ''];

  it('an empty value pulled and pushed back stays empty (skipped), not the msgid', () => {
    const entries: Entry[] = [
      { key: 'home.empty', value: '' },
      { key: 'home.none', value: '{count, plural, one {} other {}}' },
      { key: 'home.title', value: 'Welcome' },
    ];
    const { text, parsed, again } = roundTrip('po', entries, 'en', true);
    // The messages are still in the file (tms push --remove-unused counts their keys as used).
    expect(text).toContain('#, fuzzy\nmsgid "home.empty"\nmsgstr ""');
    expect(text).toContain('#, fuzzy\nmsgid "home.none"\nmsgid_plural "home.none"\nmsgstr[0] ""\nmsgstr[1] ""');
    expect(parsed.entries).toEqual([{ key: 'home.title', value: 'Welcome' }]);
    expect(parsed.warnings).toEqual(['2 untranslated messages were skipped (empty msgstr)']);
    expect(again).not.toContain('home.empty');
  });

  it('the only key, empty, is no template either', () => {
    const { parsed } = roundTrip('po', [{ key: 'home.empty', value: '' }], 'en', true);
    expect(parsed.entries).toEqual([]);
  });

  it('in another language too an empty value is untranslated (skipped), as before', () => {
    const { parsed } = roundTrip('po', [{ key: 'home.empty', value: '' }, { key: 'home.title', value: 'Willkommen' }], 'de');
    expect(parsed.entries).toEqual([{ key: 'home.title', value: 'Willkommen' }]);
    expect(parsed.warnings).toEqual(['1 untranslated message was skipped (empty msgstr)']);
  });

  it('a template (every msgstr empty, as xgettext writes it) still imports its msgids', () => {
    const pot = [
      '#, fuzzy',
      ...header,
      '#. Title of the main screen',
      'msgid "Welcome"',
      'msgstr ""',
      '',
      'msgid "%d file"',
      'msgid_plural "%d files"',
      'msgstr[0] ""',
      'msgstr[1] ""',
      '',
    ].join('\n');
    const parsed = FORMATS.po.parse(enc(pot), { language: 'en', isSource: true });
    expect(parsed.entries).toEqual([
      { key: 'Welcome', value: 'Welcome', description: 'Title of the main screen' },
      { key: '%d file', value: '{count, plural, one {# file} other {# files}}' },
    ]);
  });

  it('a fuzzy message with a text is still skipped as fuzzy', () => {
    const po = [...header, '#, fuzzy', 'msgid "Save"', 'msgstr "Sichern"', ''].join('\n');
    const parsed = FORMATS.po.parse(enc(po), { language: 'de' });
    expect(parsed).toEqual({ entries: [], warnings: ['1 fuzzy message was skipped'] });
  });
});
