// The i18next backend in a real i18next, reading what was written and published through the real
// tms API over HTTP: the default namespace is the whole language, other namespaces are groups,
// plurals imported from an i18next file come back as i18next plurals, and a new build reloads.
import i18next from 'i18next';
import ICU from 'i18next-icu';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../sdk/src/index.ts';
import { TmsBackend } from '../../sdk/src/i18next.ts';
import { toI18next } from '../../sdk/src/i18next-plural.ts';
import { countingFetch, useSdkServer } from './sdk-server.ts';

const s = useSdkServer();

const VALUES = {
  'home.title': { de: 'Willkommen', en: 'Welcome' },
  'home.greeting': { de: 'Hallo {{name}}', en: 'Hello {{name}}' },
  'menu.open': { de: 'Öffnen', en: 'Open' },
};

describe('TmsBackend in i18next', () => {
  it('three lines: t() shows published values; changeLanguage loads the other language', async () => {
    const p = await s.publishedProject(VALUES);
    const i18n = i18next.createInstance();
    await i18n.use(TmsBackend).init({ backend: { url: s.url, key: p.apiKey, storage: false }, lng: 'de', fallbackLng: 'en' });
    expect(i18n.t('home.title')).toBe('Willkommen');
    expect(i18n.t('home.greeting', { name: 'Ada' })).toBe('Hallo Ada');
    await i18n.changeLanguage('en');
    expect(i18n.t('menu.open')).toBe('Open');
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true);
  });

  it('declares its calling convention: i18next warns of nothing', async () => {
    const p = await s.publishedProject(VALUES);
    const said: string[] = [];
    const logger = { type: 'logger' as const, log: () => {}, warn: (...args: unknown[]) => void said.push(args.join(' ')), error: (...args: unknown[]) => void said.push(args.join(' ')) };
    const i18n = i18next.createInstance();
    await i18n.use(logger).use(TmsBackend).init({ debug: true, backend: { url: s.url, key: p.apiKey, storage: false }, lng: 'de', fallbackLng: 'en' });
    expect(i18n.t('home.title')).toBe('Willkommen');
    expect(said.filter((line) => /backend|deprecat/i.test(line))).toEqual([]);
  });

  it('other namespaces are groups, keys without the group prefix', async () => {
    const p = await s.publishedProject(VALUES);
    const i18n = i18next.createInstance();
    await i18n.use(TmsBackend).init({ backend: { url: s.url, key: p.apiKey, storage: false }, lng: 'de', fallbackLng: 'de', ns: ['home', 'menu'], defaultNS: 'home' });
    expect(i18n.t('title')).toBe('Willkommen');
    expect(i18n.t('menu:open')).toBe('Öffnen');
    expect(i18n.getResourceBundle('de', 'menu')).toEqual({ open: 'Öffnen' });
  });

  it('plurals imported from an i18next file read back as i18next plurals', async () => {
    const p = await s.publishedProject(VALUES);
    const file = { home: { notes_one: '{{count}} Notiz', notes_other: '{{count}} Notizen', zero_zero: 'Keine', zero_other: '{{count}} Stück' } };
    const res = await s.call(p.apiKey, 'POST', '/v1/import/de?format=i18next&status=approved', JSON.stringify(file));
    expect(res.status).toBe(200);
    await s.publish(p, {});
    const i18n = i18next.createInstance();
    await i18n.use(TmsBackend).init({ backend: { url: s.url, key: p.apiKey, storage: false }, lng: 'de', fallbackLng: 'de' });
    expect(i18n.t('home.notes', { count: 1 })).toBe('1 Notiz');
    expect(i18n.t('home.notes', { count: 3 })).toBe('3 Notizen');
    expect(i18n.t('home.zero', { count: 0 })).toBe('Keine');
    expect(i18n.t('home.zero', { count: 2 })).toBe('2 Stück');
  });

  it("plurals follow i18next's pluralSeparator (cardinal and ordinal)", async () => {
    const p = await s.publishedProject({
      'home.notes': { de: '{count, plural, one {# Notiz} other {# Notizen}}' },
      'home.place': { en: '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}' },
    });
    const i18n = i18next.createInstance();
    await i18n.use(TmsBackend).init({ backend: { url: s.url, key: p.apiKey, storage: false }, lng: 'de', fallbackLng: 'en', pluralSeparator: '~' });
    expect(i18n.t('home.notes', { count: 1 })).toBe('1 Notiz');
    expect(i18n.t('home.notes', { count: 3 })).toBe('3 Notizen');
    await i18n.changeLanguage('en');
    expect(i18n.t('home.place', { count: 2, ordinal: true })).toBe('2nd');
    expect(Object.keys(i18n.getResourceBundle('en', 'translation'))).toContain('home.place~ordinal~two');
  });

  it("a plural without some of the language's categories says other for them (Polish few and many, Arabic)", async () => {
    // An English plural served for Polish and Arabic (what a fallback chain fills in): one and other only.
    const notes = '{count, plural, one {# note} other {# notes}}';
    const p = await s.publishedProject({ 'home.notes': { pl: notes, ar: notes, ru: '{count, plural, one {# заметка} few {# заметки} other {# заметок}}' } });
    const i18n = i18next.createInstance();
    await i18n.use(TmsBackend).init({ backend: { url: s.url, key: p.apiKey, storage: false }, lng: 'pl', fallbackLng: false });
    expect([1, 2, 5, 22, 1.5].map((count) => i18n.t('home.notes', { count }))).toEqual(['1 note', '2 notes', '5 notes', '22 notes', '1.5 notes']);
    await i18n.changeLanguage('ar');
    expect([0, 1, 2, 3, 11, 100].map((count) => i18n.t('home.notes', { count }))).toEqual(['0 notes', '1 note', '2 notes', '3 notes', '11 notes', '100 notes']);
    // Categories the value has keep their own text; only the missing many says other.
    await i18n.changeLanguage('ru');
    expect([1, 3, 5].map((count) => i18n.t('home.notes', { count }))).toEqual(['1 заметка', '3 заметки', '5 заметок']);
  });

  it('with i18next-icu, the icu option gives the values as stored, and ICU formats the plurals', async () => {
    // i18next-icu's lookups skip i18next's plural suffixes: the suffixed keys the backend makes
    // of a plural by default show as the key there. With `icu`, the stored ICU text is read as is.
    const notes = '{count, plural, =0 {Keine Notizen} one {# Notiz} other {# Notizen}}';
    const p = await s.publishedProject({ 'home.notes': { de: notes }, 'home.greeting': { de: 'Hallo {name}' } });
    const load = async (icu: boolean) => {
      const i18n = i18next.createInstance();
      await i18n.use(ICU).use(TmsBackend).init({ backend: { url: s.url, key: p.apiKey, storage: false, icu }, lng: 'de', fallbackLng: false });
      return i18n;
    };
    const i18n = await load(true);
    expect([0, 1, 3].map((count) => i18n.t('home.notes', { count }))).toEqual(['Keine Notizen', '1 Notiz', '3 Notizen']);
    expect(i18n.t('home.greeting', { name: 'Ada' })).toBe('Hallo Ada');
    // Without it, what the README once advised (adding i18next-icu) showed the key for every plural.
    expect((await load(false)).t('home.notes', { count: 3 })).toBe('home.notes');
  });

  it('a key named __proto__ is a key like any other', async () => {
    const p = await s.publishedProject({ 'home.__proto__': { de: 'Prototyp' }, 'home.constructor': { de: 'Konstrukteur' } });
    const i18n = i18next.createInstance();
    await i18n.use(TmsBackend).init({ backend: { url: s.url, key: p.apiKey, storage: false }, lng: 'de', fallbackLng: false, ns: ['translation', 'home'] });
    expect(i18n.t('home.__proto__')).toBe('Prototyp');
    expect(i18n.t('home:__proto__')).toBe('Prototyp');
    expect(i18n.t('home:constructor')).toBe('Konstrukteur');
    expect(Object.keys(toI18next(JSON.parse('{"__proto__": "x"}'), 'de'))).toEqual(['__proto__']);
  });

  it('a newer build reloads what i18next has loaded', async () => {
    const p = await s.publishedProject(VALUES);
    const client = createClient({ url: s.url, key: p.apiKey, storage: false });
    const i18n = i18next.createInstance();
    await i18n.use(TmsBackend).init({ backend: { client }, lng: 'de', fallbackLng: 'de' });
    expect(i18n.t('home.title')).toBe('Willkommen');
    await s.publish(p, { 'home.title': { de: 'Herzlich willkommen' } });
    // i18next also emits an empty 'loaded' as the reload starts: wait for the one naming de.
    const loaded = new Promise<void>((resolve) => i18n.on('loaded', (what: Record<string, unknown>) => what.de && resolve()));
    await client.getManifest();
    await loaded;
    expect(i18n.t('home.title')).toBe('Herzlich willkommen');
  });

  it('an unknown language is an error for i18next, and the keys fall back', async () => {
    const p = await s.publishedProject(VALUES);
    const i18n = i18next.createInstance();
    await i18n.use(TmsBackend).init({ backend: { url: s.url, key: p.apiKey, storage: false }, lng: 'fr', fallbackLng: 'en' });
    expect(i18n.t('home.title')).toBe('Welcome');
  });

  it("i18next's default fallback 'dev' costs no request: the build's manifest does not list it", async () => {
    const p = await s.publishedProject(VALUES);
    const counting = countingFetch();
    const i18n = i18next.createInstance();
    // No fallbackLng: i18next falls back to 'dev' and asks the backend for it.
    await i18n.use(TmsBackend).init({ backend: { url: s.url, key: p.apiKey, storage: false, fetch: counting.fetch }, lng: 'de' });
    expect(i18n.t('home.title')).toBe('Willkommen');
    expect(counting.calls.map((c) => c.path).filter((path) => !path.endsWith('/manifest'))).toEqual([expect.stringMatching(/\/translations\/de$/)]);
    expect(counting.calls.some((c) => /\/dev(\/|$)/.test(c.path))).toBe(false);
  });

  it('without url and key it says what is missing', () => {
    expect(() => new TmsBackend(undefined, {})).toThrow(/backend\.url and backend\.key/);
  });
});

describe('ICU plurals to i18next keys', () => {
  it('expands canonical plurals and leaves what i18next cannot say as ICU text', () => {
    const values = {
      'a.files': '{count, plural, one {# file} other {# files}}',
      'a.place': '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}',
      'a.quoted': "{count, plural, one {it's '{'one'}'} other {{who} has # '#'}}",
      'a.exact': '{count, plural, =1 {one} other {#}}',
      'a.nested': '{count, plural, other {{g, select, m {he} other {they}}}}',
      'a.plain': 'Hello {{name}}',
      'a.taken': '{count, plural, one {#} other {#}}',
      'a.taken_one': 'already here',
    };
    expect(toI18next(values, 'en', 'a.')).toEqual({
      files_one: '{{count}} file',
      files_other: '{{count}} files',
      place_ordinal_one: '{{count}}st',
      place_ordinal_two: '{{count}}nd',
      place_ordinal_few: '{{count}}rd',
      place_ordinal_other: '{{count}}th',
      quoted_one: "it's {one}",
      quoted_other: '{{who}} has {{count}} #',
      exact: values['a.exact'],
      nested: values['a.nested'],
      plain: 'Hello {{name}}',
      taken: values['a.taken'],
      taken_one: 'already here',
    });
  });

  it('=0 is _zero where the language has no zero category; in Arabic zero is the category', () => {
    // German's one has no text of its own here: as in ICU, it says other.
    expect(toI18next({ k: '{count, plural, =0 {none} other {#}}' }, 'de')).toEqual({ k_zero: 'none', k_one: '{{count}}', k_other: '{{count}}' });
    expect(toI18next({ k: '{count, plural, =0 {none} other {#}}' }, 'ar')).toEqual({ k: '{count, plural, =0 {none} other {#}}' });
    const other = '{{count}}';
    expect(toI18next({ k: '{count, plural, zero {none} other {#}}' }, 'ar')).toEqual({ k_zero: 'none', k_one: other, k_two: other, k_few: other, k_many: other, k_other: other });
  });
});
