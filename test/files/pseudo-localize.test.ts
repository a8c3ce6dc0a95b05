// Pseudo-localization where values meet their formatters (core/files/pseudo-localize.ts), from the
// review of 2026-12-01: Java's format conversions kept (checked with a JDK when one is installed),
// a mask never broken by an address or an escape, other scripts lengthened,
// white space at the edges, and a plural kept one in a PO file of a code no plural table knows.
// Each test failed on the code as reviewed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import { pseudoFile, pseudoLocalize, pseudoMethod, pseudoPlurals } from '../../core/files/pseudo-localize.ts';
import { checkTranslation } from '../../core/quality/check-translation.ts';
import { useTestApp } from '../support/test-app.ts';
import { project } from '../translations/helpers.ts';

const t = useTestApp();

/** Java's String.format (Android's formatter) on each pattern, when a JDK is installed: the exception, or null. */
function javaFormatErrors(patterns: string[]): (string | null)[] | null {
  if (spawnSync('javac', ['-version']).status !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'pseudo-java-'));
  writeFileSync(
    join(dir, 'F.java'),
    'public class F { public static void main(String[] a) { for (String f : a) { try { String.format(f, 1234567, true, new java.util.Date(0)); System.out.println("ok"); } catch (Exception e) { System.out.println(e); } } } }',
  );
  execFileSync('javac', ['F.java'], { cwd: dir });
  const out = execFileSync('java', ['-cp', dir, 'F', ...patterns], { encoding: 'utf8' }).trim().split('\n');
  return out.map((line) => (line === 'ok' ? null : line));
}

describe('pseudo-localization where values meet their formatters', () => {
  it('keeps the Java/Android format conversions (%,d %n %b %S %3$tB), which String.format must still accept', () => {
    const sources = { '%,d items': '%,d', 'Done%n': '%n', 'Enabled: %b': '%b', 'Name: %S': '%S', 'On %3$tB': '%3$tB' };
    const pseudo = Object.keys(sources).map((s) => pseudoLocalize(s, 'en'));
    // Java's own verdict (it was UnknownFormatConversionException for each), when a JDK is here.
    expect(javaFormatErrors(Object.keys(sources)) ?? []).toEqual(javaFormatErrors(Object.keys(sources)) ? Object.keys(sources).map(() => null) : []); // the sources format
    const errors = javaFormatErrors(pseudo);
    if (errors) expect(Object.fromEntries(pseudo.map((p, i) => [p, errors[i]]))).toEqual(Object.fromEntries(pseudo.map((p) => [p, null])));
    // The conversion of each, as written in the source, is still in the pseudo value.
    expect(pseudo.map((p, i) => p.includes(Object.values(sources)[i]!))).toEqual(pseudo.map(() => true));
  });

  it('pseudo-localizes a value whose URL is followed by a placeholder, or whose placeholder follows a backslash', () => {
    for (const source of ['Visit https://x.y/{path} today', 'Open www.example.com/{id} now', 'Saved in C:\\{dir} folder', 'Escape \\<b>bold</b> here']) {
      // It came back unchanged between brackets: a tester read it as hard-coded.
      expect(pseudoLocalize(source, 'en'), source).not.toBe(`[${source}]`);
    }
    // Every branch of a plural falls back with it.
    const plural = '{n, plural, one {See https://x.y/{n}} other {See https://x.y/#}}';
    expect(pseudoLocalize(plural, 'en')).not.toContain('See');
  });

  it('lengthens a text of a non-Latin source language too (Cyrillic, CJK): the docs say every text is lengthened', () => {
    expect(pseudoLocalize('Привет, мир', 'ru')).not.toBe('[Привет, мир]');
    expect(pseudoLocalize('設定を保存', 'ja')).not.toBe('[設定を保存]');
  });

  it('keeps a value\'s leading and trailing whitespace at its edges (quality check "whitespace", concatenation)', () => {
    for (const source of ['Name: ', 'Hello\n', ' or']) {
      const pseudo = pseudoLocalize(source, 'en');
      const warnings = checkTranslation({ text: pseudo, source, language: 'en-XA', sourceLanguage: 'en' }).filter((w) => w.check === 'whitespace');
      expect(warnings, `${JSON.stringify(source)} -> ${JSON.stringify(pseudo)}`).toEqual([]);
    }
  });

  it('a PO file of the pseudo-language qps-ploc (which no plural table knows) keeps a plural a gettext plural', async () => {
    const p = await project(t, ['en', 'de']);
    const file = FORMATS.json.serialize([{ key: 'files', value: '{count, plural, one {# file} other {# files}}' }], { language: 'en' });
    const imported = await t.app.request('/v1/import/en?format=json&status=approved', { method: 'POST', headers: { 'X-API-Key': p.apiKey }, body: file });
    expect(imported.status).toBe(200);
    const xa = await (await p.get('/v1/export/en?format=po&pseudo=en-XA')).text();
    expect(xa).toContain('msgid_plural "files"'); // en-XA: fine
    const ploc = await (await p.get('/v1/export/en?format=po&pseudo=qps-ploc')).text();
    // It was "Plural-Forms: nplurals=1; plural=0;" and msgstr "{count, plural, one {[# ƒîļé one]} ...}",
    // a plain string that ngettext() never finds as a plural: the file follows the source's rules.
    expect(ploc).toContain('msgid_plural "files"');
  });

  describe('right-to-left (ar-XB)', () => {
    const bidi = (value: string) => pseudoLocalize(value, 'en', 'bidi');
    const word = (w: string) => `\u200f\u202e${w}\u202c\u200f`;

    it('is the method of a code of a right-to-left script, and accents are every other code\'s', () => {
      expect(['ar-XB', 'he-XB', 'fa-XB', 'ur-XB', 'ckb-XB'].map(pseudoMethod)).toEqual(['bidi', 'bidi', 'bidi', 'bidi', 'bidi']);
      expect(['en-XA', 'qps-Ploc', 'de-XA', 'ja-XA'].map(pseudoMethod)).toEqual(['accents', 'accents', 'accents', 'accents']);
    });

    it('keeps white space outside the overrides, and Java\'s conversions, entities, escapes and addresses not reversed', () => {
      expect(bidi(' Name: ')).toBe(` ${word('Name:')} `);
      expect(bidi('%,d items%n')).toBe(`%,d ${word('items')}%n`);
      expect(bidi('Tom &amp; Jerry')).toBe(`${word('Tom')} &amp; ${word('Jerry')}`);
      expect(bidi('Mail help@example.com or www.example.com/{id}')).toBe(`${word('Mail')} help@example.com ${word('or')} www.example.com/{id}`);
      expect(bidi('Line\\nNext')).toBe(`${word('Line')}\\n${word('Next')}`);
      // No white space changed: the quality check's edge warnings stay quiet.
      for (const source of ['Name: ', 'Hello\n', ' or']) {
        expect(checkTranslation({ text: bidi(source), source, language: 'ar-XB', sourceLanguage: 'en' }).filter((w) => w.check === 'whitespace')).toEqual([]);
      }
    });

    it('keeps ICU\'s quoted text quoted: no override between an apostrophe and the brace or # it quotes (found by review)', () => {
      const strip = (s: unknown) => String(s).replace(/[\u200f\u202e\u202c]/g, '');
      const format = (message: string, args: Record<string, unknown>) => new IntlMessageFormat(message, 'en').format(args);
      for (const [source, args] of [
        ["Type '{name}' to continue", { name: 'Ada' }], // Type {name} to continue (it printed Ada)
        ["{n, plural, one {'#'# item} other {'#'# items}}", { n: 3 }], // #3 items (it printed '3'3)
        ["Use '{a b}' literally", {}], // Use {a b} literally (it did not parse)
      ] as const) {
        expect(strip(format(bidi(source), args)), source).toBe(format(source, args));
      }
    });

    it('keeps a select and its branches, and leaves a value without words as it is', () => {
      expect(bidi('{g, select, female {She left} other {They left}}')).toBe(`{g, select, female {${word('She')} ${word('left')}} other {${word('They')} ${word('left')}}}`);
      expect(bidi('{count}')).toBe('{count}');
      expect(bidi('')).toBe('');
    });

    it('follows the pseudo-language\'s plural rules only when they hold every category of its source\'s', () => {
      expect(pseudoPlurals('ar-XB', 'en')).toBe('ar-XB'); // Arabic has all six
      expect(pseudoPlurals('ar-XB', 'ru')).toBe('ar-XB');
      expect(pseudoPlurals('en-XA', 'en')).toBe('en-XA');
      expect(pseudoPlurals('en-XA', 'ru')).toBe('ru'); // English has no few or many
      expect(pseudoPlurals('qps-Ploc', 'de')).toBe('de'); // no plural table knows qps
    });

    it('writes =0 as the zero category where it means 0 alone (Arabic), and keeps the source\'s rules where it means more (Latvian)', () => {
      const cart = '{count, plural, =0 {Your cart is empty} one {# item} other {# items}}';
      const ar = pseudoFile([cart, 'Save'], 'en', 'ar-XB');
      expect(ar.plurals).toBe('ar-XB');
      expect(ar.values[0]).toBe(`{count, plural, zero {${['Your', 'cart', 'is', 'empty'].map(word).join(' ')}} one {# ${word('item')}} other {# ${word('items')}}}`);
      // lv-XA: Latvian's zero is 0, 10-20, 30... : =0 is no category there.
      const lv = pseudoFile([cart], 'en', 'lv-XA');
      expect(lv.plurals).toBe('en');
      expect(lv.values[0]).toContain('=0 {');
      expect(pseudoFile(['Save'], 'en', 'lv-XA').plurals).toBe('lv-XA');
    });
  });
});
