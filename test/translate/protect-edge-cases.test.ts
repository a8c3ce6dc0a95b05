// What protect() sends to a provider for values that look like placeholders but are not (a plain
// percent sign), ICU whose branch is only an argument, and react-i18next's numbered components.
import { describe, expect, it } from 'vitest';
import { parse } from '@formatjs/icu-messageformat-parser';
import { protect } from '../../core/translate/protect.ts';
import { fakeTranslate } from '../support/mt-emulators.ts';

const machine = (value: string, to: string) => {
  const p = protect(value);
  return p.restore(p.segments.map((s) => fakeTranslate(s, to)), to);
};

describe('protect(): percent signs', () => {
  it('a plain percent sign before a word ("Get 50% off", "100% secure") is text, sent whole and translated whole', () => {
    const p = protect('Get 50% off today');
    expect(p.segments).toEqual(['Get 50% off today']);
    expect(machine('Get 50% off today', 'de')).toBe('GET 50% OFF TODAY');
    expect(protect('100% secure').segments).toEqual(['100% secure']);
    expect(protect('Earn 20% cashback').segments).toEqual(['Earn 20% cashback']);
  });

  it('printf conversions are still protected: %s, %1$s, %d, %-5d, %.2f, %(name)s, %@', () => {
    const value = 'Hello %s, %1$s has %d, %-5d and %.2f for %(name)s at %@ — 100%% sure';
    const p = protect(value);
    expect(p.segments).toHaveLength(1);
    expect(p.segments[0]).not.toMatch(/%[-.\d(@sdf]/);
    expect(p.segments[0]).toContain('100%%');
    expect(machine(value, 'de')).toBe('Hallo %s, %1$s HAS %d, %-5d AND %.2f FOR %(name)s AT %@ — 100%% SURE');
  });
});

describe('protect(): ICU branches that are only an argument', () => {
  it('a select whose `other` is only {name} is taken apart as ICU: the provider gets the branches, never the keywords', () => {
    const select = 'Sent by {gender, select, female {her} male {him} other {{name}}}';
    expect(protect(select).segments.join(' ')).not.toMatch(/select|female|other/);
    expect(() => parse(machine(select, 'de')!)).not.toThrow();
    expect(machine(select, 'de')).toMatch(/^\S+ \S+ \{gender, select, /);
  });

  it('a plural whose `other` is only {count} comes back as a parseable plural', () => {
    const plural = '{count, plural, =0 {No items} one {One item} other {{count}}}';
    expect(machine(plural, 'de')).toMatch(/^\{count, plural, =0 \{/);
    expect(() => parse(machine(plural, 'de')!)).not.toThrow();
  });

  it("i18next's {{name}} and {{count, number}} are still protected as placeholders", () => {
    expect(protect('Hello {{name}}').segments).toEqual(['Hello <x id="0"/>']);
    expect(machine('Hello {{name}}', 'de')).toBe('Hallo {{name}}');
    expect(machine('{{count}} files', 'de')).toBe('{{count}} Dateien');
    expect(machine('Total: {{price, currency}}', 'de')).toBe('TOTAL: {{price, currency}}');
  });
});

describe('protect(): react-i18next numbered components', () => {
  it('<0>here</0> and <1/> go to the provider as tags and come back in place', () => {
    const p = protect('Click <0>here</0> to continue<1/>');
    expect(p.segments).toHaveLength(1);
    expect(p.segments[0]).not.toMatch(/<\/?\d/);
    expect(machine('Click <0>here</0> to continue<1/>', 'de')).toBe('CLICK <0>HERE</0> TO CONTINUE<1/>');
  });

  it('a comparison such as "x<1 and y>2" is text, not a tag', () => {
    expect(protect('Use x<1 and y>2').segments).toEqual(['Use x<1 and y>2']);
  });
});

describe('protect(): tags with a prefixed name', () => {
  it("Android's <xliff:g> around a placeholder is kept as a tag, not sent (and pseudo-localized) as text (found by review)", () => {
    const value = 'Hello <xliff:g id="user" example="Ada">%1$s</xliff:g>, welcome';
    const p = protect(value);
    expect(p.segments.join(' ')).not.toContain('xliff');
    expect(machine(value, 'de')).toBe('Hallo <xliff:g id="user" example="Ada">%1$s</xliff:g>, Willkommen');
  });
});
