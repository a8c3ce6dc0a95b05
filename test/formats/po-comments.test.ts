// A PO message's `#,` flags and `#.` comments belong to that message only. Comments that no
// message took (an obsolete `#~` entry's `#, fuzzy` and `#.` lines, or comments a blank line
// separates from the next message) must not carry over to the next message, which would then be
// skipped as fuzzy or get a wrong description.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const parse = (text: string, language = 'de') => FORMATS.po.parse(enc(text), { language });

const HEADER = ['msgid ""', 'msgstr ""', '"Language: de\\n"', '"Content-Type: text/plain; charset=UTF-8\\n"', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', ''];

describe('po: comments of an obsolete entry', () => {
  it("an obsolete fuzzy entry's #, fuzzy does not make the next message fuzzy", () => {
    const file = [
      ...HEADER,
      '#, fuzzy',
      '#~ msgid "Old text"',
      '#~ msgstr "Alter Text"',
      '',
      'msgid "New text"',
      'msgstr "Neuer Text"',
      '',
    ].join('\n');
    const parsed = parse(file);
    expect(parsed.entries).toEqual([{ key: 'New text', value: 'Neuer Text' }]);
    expect(parsed.warnings).toEqual([]);
  });

  it("an obsolete entry's #. comment is not the next message's description", () => {
    const file = [
      ...HEADER,
      '#. Shown on the old start screen',
      '#~ msgid "Old text"',
      '#~ msgstr "Alter Text"',
      '',
      '#. Title of the main screen',
      'msgid "Welcome"',
      'msgstr "Willkommen"',
      '',
    ].join('\n');
    expect(parse(file).entries).toEqual([{ key: 'Welcome', value: 'Willkommen', description: 'Title of the main screen' }]);
  });

  it('comments a blank line separates from the next message are not its own', () => {
    const file = [...HEADER, '#, fuzzy', '#. A note left above nothing', '', 'msgid "Welcome"', 'msgstr "Willkommen"', ''].join('\n');
    const parsed = parse(file);
    expect(parsed.entries).toEqual([{ key: 'Welcome', value: 'Willkommen' }]);
    expect(parsed.warnings).toEqual([]);
  });

  it('comments directly above a message after an obsolete one are still its own', () => {
    const file = [...HEADER, '#~ msgid "Old text"', '#~ msgstr "Alter Text"', '#. Title of the main screen', '#, fuzzy', 'msgid "Welcome"', 'msgstr "Willkommen"', ''].join('\n');
    const parsed = parse(file);
    expect(parsed.entries).toEqual([]);
    expect(parsed.warnings).toEqual(['1 fuzzy message was skipped']);
  });
});
