// `tms pull --pseudo en-XA` (docs/cli.md, "Pseudo-localization"): the source language pushed from
// the repository comes back as the pseudo-language's files at their mapped paths, which i18next
// itself loads and formats; a code of the project, or flags that cannot go with it, are exit 2 and
// write nothing. The CLI runs as a child process against a real server over HTTP.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pseudoLocalize } from '../../core/files/pseudo-localize.ts';
import type { TestProject } from '../support/test-app.ts';
import { runTms, writeFiles } from './support/run-tms.ts';
import { serveTestApp, type ServedApp } from './support/served-app.ts';

let served: ServedApp;
const dirs: string[] = [];
beforeAll(async () => {
  served = await serveTestApp();
});
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  await served?.close();
});

const SOURCE = {
  home: { title: 'Welcome, {{name}}!', cart_one: '{{count}} item', cart_other: '{{count}} items' },
  settings: { save: 'Save', help: 'See <1>the guide</1> at https://example.com' },
};

async function newProject(): Promise<TestProject> {
  const p = await served.t.newProject('team');
  for (const code of ['en', 'de']) expect((await served.t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

/** A repository as react-i18next keeps one: a namespace file per group and language. */
async function repository(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-pseudo-'));
  dirs.push(dir);
  await writeFiles(dir, {
    'tms.config.json': JSON.stringify({ server: served.base, sourceLanguage: 'en', files: [{ path: 'public/locales/{language}/{group}.json', format: 'i18next' }] }),
    'public/locales/en/home.json': JSON.stringify({ title: SOURCE.home.title, cart_one: SOURCE.home.cart_one, cart_other: SOURCE.home.cart_other }, null, 2),
    'public/locales/en/settings.json': JSON.stringify(SOURCE.settings, null, 2),
  });
  return dir;
}

describe('tms pull --pseudo', () => {
  it('writes the pseudo-language files from the source language pushed, which i18next loads and formats', async () => {
    const p = await newProject();
    const dir = await repository();
    const pushed = await runTms(['push'], { cwd: dir, apiKey: p.apiKey });
    expect(pushed.code, pushed.stderr).toBe(0);

    const r = await runTms(['pull', '--pseudo', 'en-xa'], { cwd: dir, apiKey: p.apiKey });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('public/locales/en-XA/home.json (en-XA, i18next): created\npublic/locales/en-XA/settings.json (en-XA, i18next): created\n');
    // Nothing else written: the source's and de's folders are as they were (de has none).
    expect((await readdir(join(dir, 'public/locales'))).sort()).toEqual(['en', 'en-XA']);

    const home = JSON.parse(await readFile(join(dir, 'public/locales/en-XA/home.json'), 'utf8'));
    const settings = JSON.parse(await readFile(join(dir, 'public/locales/en-XA/settings.json'), 'utf8'));
    expect(settings).toEqual({ help: pseudoLocalize(SOURCE.settings.help, 'en'), save: '[Šåṽé one]' });
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en-XA', ns: ['home', 'settings'], resources: { 'en-XA': { home, settings } }, interpolation: { escapeValue: false } });
    expect(i18n.t('home:title', { name: 'Ada' })).toBe('[Ŵéļçöṁé, Ada! one tw]');
    expect(i18n.t('home:cart', { count: 1 })).toBe('[1 îţéṁ one]');
    expect(i18n.t('home:cart', { count: 4 })).toBe('[4 îţéṁš one]');
    expect(i18n.t('settings:help')).toMatch(/^\[Šéé <1>ţĥé ĝûîðé<\/1> åţ https:\/\/example\.com /);

    // Again: nothing changed, nothing written (the ETag of the local file spares the download).
    const again = await runTms(['pull', '--pseudo', 'en-XA', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(again.code, again.stderr).toBe(0);
    const answer = JSON.parse(again.stdout);
    expect(answer.pseudo).toEqual({ language: 'en-XA', from: 'en' });
    expect(answer.files.map((f: { state: string; downloaded: boolean }) => [f.state, f.downloaded])).toEqual([
      ['unchanged', false],
      ['unchanged', false],
    ]);

    // A right-to-left pseudo-language beside it: each word forced right-to-left, and Arabic's every
    // plural key, so that i18next in ar-XB finds a form for 3 (`few`) too.
    const rtl = await runTms(['pull', '--pseudo', 'ar-XB'], { cwd: dir, apiKey: p.apiKey });
    expect(rtl.code, rtl.stderr).toBe(0);
    expect(rtl.stdout).toBe('public/locales/ar-XB/home.json (ar-XB, i18next): created\npublic/locales/ar-XB/settings.json (ar-XB, i18next): created\n');
    const arHome = JSON.parse(await readFile(join(dir, 'public/locales/ar-XB/home.json'), 'utf8'));
    expect(Object.keys(arHome).sort()).toEqual(['cart_few', 'cart_many', 'cart_one', 'cart_other', 'cart_two', 'cart_zero', 'title']);
    const ar = i18next.createInstance();
    await ar.init({ lng: 'ar-XB', fallbackLng: false, ns: ['home'], resources: { 'ar-XB': { home: arHome } }, interpolation: { escapeValue: false } });
    expect(ar.t('home:title', { name: 'Ada' })).toBe('\u200f\u202eWelcome,\u202c\u200f Ada\u200f\u202e!\u202c\u200f');
    expect(ar.t('home:cart', { count: 3 })).toBe('3 \u200f\u202eitems\u202c\u200f');
  });

  it('a code of the project, no code, or with --language or --include-source: exit 2, nothing written', async () => {
    const p = await newProject();
    const dir = await repository();
    const refused = async (args: string[], stderr: string) => {
      const r = await runTms(['pull', ...args], { cwd: dir, apiKey: p.apiKey });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`tms pull: ${stderr}\n`);
    };
    await refused(['--pseudo', 'DE'], "--pseudo de: a language of this project; a pseudo-language needs a code of its own (en-XA, qps-ploc), or its files would replace de's; nothing was written");
    await refused(['--pseudo', 'en'], "--pseudo en: a language of this project; a pseudo-language needs a code of its own (en-XA, qps-ploc), or its files would replace en's; nothing was written");
    await refused(['--pseudo', 'en_XA'], '--pseudo "en_XA": not a language code (en-XA, qps-ploc); nothing was written');
    await refused(['--pseudo', 'en-XA', '--language', 'de'], '--pseudo writes only the pseudo-language\'s files, made from the source language (en): not with --language or --include-source');
    await refused(['--pseudo', 'en-XA', '--include-source'], '--pseudo writes only the pseudo-language\'s files, made from the source language (en): not with --language or --include-source');
    expect((await readdir(join(dir, 'public/locales'))).sort()).toEqual(['en']);
  });
});
