// The glossary in machine translation (docs/decisions.md, "The glossary in machine translation"):
// POST /v1/translate gives the provider the glossary terms found in the texts it sends, with the
// phrase to use for each in the target language (a term kept as written: itself), and the target
// language's forbidden words. DeepL gets a glossary of its own for the call (made, used, deleted);
// a chat model gets both in its request; Azure gets each term found as dynamic-dictionary markup
// (pairs with English); LibreTranslate and Google (Basic), which have no glossaries, translate as before.
import { describe, expect, it } from 'vitest';
import { withDeeplTestApp, type StartedApp } from '../support/deepl-test-app.ts';
import { EMULATOR_KEYS, type MtEmulator } from '../support/mt-emulators.ts';
import { deeplTranslator } from '../../core/translate/providers/deepl.ts';
import { openAiChatTranslator } from '../../core/translate/providers/openai-chat.ts';
import { libreTranslateTranslator } from '../../core/translate/providers/libretranslate.ts';
import { googleTranslator } from '../../core/translate/providers/google.ts';
import { azureTranslator } from '../../core/translate/providers/azure.ts';
import { EMULATOR_AZURE_REGION } from '../support/mt-emulators.ts';
import type { TestProject } from '../support/test-app.ts';

let t: StartedApp;
let emulator: MtEmulator;
withDeeplTestApp((app, emu) => {
  t = app;
  emulator = emu;
});

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

const glossary = [
  { source: 'Dashboard', target: 'Übersicht' },
  { source: 'Acme Cloud', target: 'Acme Cloud' },
];

describe('the adapters with a glossary', () => {
  it('DeepL: a glossary of the call\'s terms is made, used by the translation, and deleted', async () => {
    const before = emulator.calls.length;
    const out = await deeplTranslator({ apiKey: EMULATOR_KEYS.deepl, url: emulator.url }).translate({ texts: ['Save the dashboard of Acme Cloud'], from: 'en', to: 'de', glossary });
    expect(out).toEqual(['Speichern THE Übersicht OF Acme Cloud']);
    const calls = emulator.calls.slice(before).map((c) => [c.method, c.path.replace(/emulated-glossary-\d+/, 'ID')]);
    expect(calls).toEqual([
      ['POST', '/v2/glossaries'],
      ['POST', '/v2/translate'],
      ['DELETE', '/v2/glossaries/ID'],
    ]);
    const made = emulator.calls[before]!.body;
    expect(made).toMatchObject({ source_lang: 'en', target_lang: 'de', entries_format: 'tsv', entries: 'Dashboard\tÜbersicht\nAcme Cloud\tAcme Cloud' });
    expect(emulator.calls[before + 1]!.body.glossary_id).toMatch(/^emulated-glossary-/);
    expect(emulator.glossaries.size).toBe(0);
  });

  it('DeepL: a regional target uses a glossary of its language; a pair DeepL has no glossaries for translates without one', async () => {
    const deepl = deeplTranslator({ apiKey: EMULATOR_KEYS.deepl, url: emulator.url });
    expect(await deepl.translate({ texts: ['Dashboard'], from: 'en', to: 'pt-BR', glossary: [{ source: 'Dashboard', target: 'Painel' }] })).toEqual(['Painel']);
    const before = emulator.calls.length;
    expect(await deepl.translate({ texts: ['Save the dashboard'], from: 'en', to: 'ar', glossary })).toEqual(['SAVE THE DASHBOARD']);
    const calls = emulator.calls.slice(before);
    expect(calls.map((c) => c.path)).toEqual(['/v2/glossaries', '/v2/translate']);
    expect(calls[1]!.body.glossary_id).toBeUndefined();
  });

  it('DeepL: a failed translation still deletes its glossary, and the failure is the call\'s', async () => {
    const deepl = deeplTranslator({ apiKey: EMULATOR_KEYS.deepl, url: emulator.url });
    // The glossary is made; the translation that follows fails.
    const made = emulator.calls.length;
    emulator.failNext(500, 2);
    // The first failure is the glossary's own (translated without one), the second the translation's.
    expect(await deepl.translate({ texts: ['Dashboard'], from: 'en', to: 'de', glossary }).catch((e) => e)).toMatchObject({ status: 500 });
    expect(emulator.calls.slice(made).map((c) => c.path)).toEqual(['/v2/glossaries', '/v2/translate']);
    emulator.failNext(0, 0);
    const original = emulator.calls.length;
    const failing = deeplTranslator({ apiKey: EMULATOR_KEYS.deepl, url: emulator.url, fetch: (async (url: string | URL | Request, init?: RequestInit) => (String(url).endsWith('/v2/translate') ? new Response('{}', { status: 503 }) : fetch(url, init))) as typeof fetch });
    expect(await failing.translate({ texts: ['Dashboard'], from: 'en', to: 'de', glossary }).catch((e) => e)).toMatchObject({ status: 503 });
    expect(emulator.calls.slice(original).map((c) => c.method)).toEqual(['POST', 'DELETE']);
    expect(emulator.glossaries.size).toBe(0);
  });

  it('a chat model gets the glossary and the words to avoid in its request; LibreTranslate translates as before', async () => {
    const before = emulator.calls.length;
    const model = openAiChatTranslator({ url: `${emulator.url}/v1`, model: 'emulated-model', apiKey: EMULATOR_KEYS.openai });
    expect(await model.translate({ texts: ['Save the dashboard'], from: 'en', to: 'de', glossary, avoid: ['Einloggen'] })).toEqual(['Speichern THE Übersicht']);
    const sent = emulator.calls[before]!.body.messages;
    expect(JSON.parse(sent.find((m: { role: string }) => m.role === 'user').content)).toEqual({
      from: 'en',
      to: 'de',
      texts: ['Save the dashboard'],
      glossary: { Dashboard: 'Übersicht', 'Acme Cloud': 'Acme Cloud' },
      avoid: ['Einloggen'],
    });
    expect(sent.find((m: { role: string }) => m.role === 'system').content).toMatch(/"avoid"/);
    const libre = libreTranslateTranslator({ url: emulator.url, apiKey: EMULATOR_KEYS.libretranslate });
    expect(await libre.translate({ texts: ['Save the dashboard'], from: 'en', to: 'de', glossary })).toEqual(['Speichern THE DASHBOARD']);
    const google = googleTranslator({ apiKey: EMULATOR_KEYS.google, url: emulator.url });
    expect(await google.translate({ texts: ['Save the dashboard'], from: 'en', to: 'de', glossary })).toEqual(['Speichern THE DASHBOARD']);
  });

  const azure = () => azureTranslator({ apiKey: EMULATOR_KEYS.azure, region: EMULATOR_AZURE_REGION, url: emulator.url });

  it("Azure: each term found is wrapped in a dynamic-dictionary entry with its phrase, whole words only, the longest first", async () => {
    const before = emulator.calls.length;
    const entries = [...glossary, { source: 'Cloud', target: 'Wolke' }, { source: 'R&D "lab"', target: 'F&E <Labor>' }];
    const out = await azure().translate({ texts: ['Save the dashboard of Acme Cloud <x id="0"/>', 'Dashboards, Cloud and R&D "lab"'], from: 'en', to: 'de', glossary: entries });
    expect(out).toEqual(['Speichern THE Übersicht OF Acme Cloud <x id="0"/>', 'DASHBOARDS, Wolke AND F&E <Labor>']);
    expect(emulator.calls[before]!.body).toEqual([
      { Text: 'Save the <mstrans:dictionary translation="Übersicht">dashboard</mstrans:dictionary> of <mstrans:dictionary translation="Acme Cloud">Acme Cloud</mstrans:dictionary> <x id="0"/>' },
      { Text: 'Dashboards, <mstrans:dictionary translation="Wolke">Cloud</mstrans:dictionary> and <mstrans:dictionary translation="F&amp;E &lt;Labor&gt;">R&amp;D "lab"</mstrans:dictionary>' },
    ]);
  });

  it('Azure: a pair without English gets no dictionary (Microsoft: From and To must include English); no terms, no markup', async () => {
    const before = emulator.calls.length;
    expect(await azure().translate({ texts: ['Hallo dashboard'], from: 'de', to: 'fr', glossary })).toEqual(['HALLO DASHBOARD']);
    expect(await azure().translate({ texts: ['Save the dashboard'], from: 'en', to: 'de' })).toEqual(['Speichern THE DASHBOARD']);
    expect(await azure().translate({ texts: ['Speichern dashboard'], from: 'de', to: 'en', glossary: [{ source: 'Dashboard', target: 'Overview' }] })).toEqual(['SPEICHERN Overview']);
    expect(emulator.calls.slice(before).map((c) => c.body[0].Text)).toEqual(['Hallo dashboard', 'Save the dashboard', 'Speichern <mstrans:dictionary translation="Overview">dashboard</mstrans:dictionary>']);
  });
});

async function project(): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de', 'fr']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  const add = async (body: Record<string, unknown>) => json(await t.call(p.apiKey, 'POST', '/v1/glossary', body));
  await add({ term: 'Dashboard', translations: { de: 'Übersicht' } });
  await add({ term: 'Acme Cloud', translatable: false, case_sensitive: true });
  await add({ term: 'Login', forbidden: true, translations: { de: 'Einloggen' } });
  await add({ term: 'Workspace', translations: { de: 'Arbeitsbereich' } });
  return p;
}
const source = async (p: TestProject, key: string, text: string) => {
  const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key }));
  await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: text }));
  return k.id as string;
};

describe('POST /v1/translate with a glossary', () => {
  it("gives DeepL the terms found in the texts sent, and the values use them", async () => {
    const p = await project();
    const a = await source(p, 'a', 'Hello dashboard');
    const b = await source(p, 'b', 'Welcome to Acme Cloud, {name}');
    await source(p, 'c', 'Save');
    const before = emulator.calls.length;
    const answer = await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}));
    expect(answer).toMatchObject({ translated: 3, from_provider: 3, skipped: [] });
    const made = emulator.calls.slice(before).filter((c) => c.path === '/v2/glossaries');
    // Workspace is in no text sent: not an entry. Login is forbidden: never one.
    expect(made.map((c) => c.body.entries)).toEqual(['Acme Cloud\tAcme Cloud\nDashboard\tÜbersicht']);
    expect(emulator.glossaries.size).toBe(0);
    const value = async (id: string) => (await json(await t.call(p.apiKey, 'GET', `/v1/keys/${id}/translations/de`))).value;
    expect(await value(a)).toBe('Hallo Übersicht');
    expect(await value(b)).toBe('Willkommen TO Acme Cloud, {name}');
  });

  it('a language the glossary says nothing of, and a project without a glossary, make no DeepL glossary', async () => {
    const p = await project();
    await source(p, 'a', 'Hello dashboard');
    const before = emulator.calls.length;
    // French: Dashboard has no French translation, and no term is kept as written in this text.
    expect(await json(await t.call(p.apiKey, 'POST', '/v1/translate/fr', {}))).toMatchObject({ translated: 1 });
    expect(emulator.calls.slice(before).map((c) => c.path)).toEqual(['/v2/translate']);
    const q = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(q.apiKey, 'POST', '/v1/languages', { code }));
    const k = await json(await t.call(q.apiKey, 'POST', '/v1/keys', { key: 'a' }));
    await json(await t.call(q.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: 'Hello dashboard' }));
    const from = emulator.calls.length;
    expect(await json(await t.call(q.apiKey, 'POST', '/v1/translate/de', {}))).toMatchObject({ translated: 1 });
    // Another project's glossary is not this one's.
    expect(emulator.calls.slice(from).map((c) => c.path)).toEqual(['/v2/translate']);
    expect((await json(await t.call(q.apiKey, 'GET', `/v1/keys/${k.id}/translations/de`))).value).toBe('Hallo DASHBOARD');
  });
});

describe('a DeepL glossary that cannot be made (found by review)', () => {
  const deepl = () => deeplTranslator({ apiKey: EMULATOR_KEYS.deepl, url: emulator.url });

  it('an account at its glossary limit (456) or rate (429), or a failing glossary endpoint, translates without one', async () => {
    for (const status of [456, 429, 500]) {
      const before = emulator.calls.length;
      emulator.failNext(status);
      expect(await deepl().translate({ texts: ['Save the dashboard'], from: 'en', to: 'de', glossary })).toEqual(['Speichern THE DASHBOARD']);
      // A full account (456) is first looked over for glossaries of ours left behind: none here.
      const listed = status === 456 ? ['GET /v2/glossaries'] : [];
      expect(emulator.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual(['POST /v2/glossaries', ...listed, 'POST /v2/translate']);
    }
    // A refused key is the call's failure: the translation would be refused too.
    const wrong = deeplTranslator({ apiKey: 'wrong', url: emulator.url });
    expect(await wrong.translate({ texts: ['Save'], from: 'en', to: 'de', glossary }).catch((e) => e)).toMatchObject({ status: 403 });
  });

  it('entries DeepL would refuse are left out, the others kept', async () => {
    const before = emulator.calls.length;
    const odd = [
      { source: 'Don\u0092t save', target: 'Nicht speichern' },
      { source: 'Sign\u2028in', target: 'Anmelden' },
      { source: 'Dashboard', target: 'Übersicht' },
      { source: 'x'.repeat(300), target: 'ü'.repeat(600) },
    ];
    expect(await deepl().translate({ texts: ['Save the dashboard'], from: 'en', to: 'de', glossary: odd })).toEqual(['Speichern THE Übersicht']);
    expect(emulator.calls[before]!.body.entries).toBe('Dashboard\tÜbersicht');
  });

  it("a placeholder's protected tag is no use of a term named like it", async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'ID', translatable: false }));
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'X', translations: { de: 'Ix' } }));
    await source(p, 'a', 'Hello {name}');
    const before = emulator.calls.length;
    await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}));
    expect(emulator.calls.slice(before).map((c) => c.path)).toEqual(['/v2/translate']);
  });
});

describe("DeepL glossaries of ours left behind (found by review)", () => {
  const deepl = () => deeplTranslator({ apiKey: EMULATOR_KEYS.deepl, url: emulator.url });

  it('an account whose one glossary is an old one of ours gets it swept, then the request its glossary', async () => {
    emulator.glossaryLimit(1);
    try {
      const leftBehind = 'emulated-left-behind';
      emulator.glossaries.set(leftBehind, { name: 'tms machine translation', source_lang: 'en', target_lang: 'de', entries: [['a', 'b']], creation_time: new Date(Date.now() - 60 * 60_000).toISOString() });
      expect(await deepl().translate({ texts: ['Save the dashboard'], from: 'en', to: 'de', glossary })).toEqual(['Speichern THE Übersicht']);
      expect(emulator.glossaries.has(leftBehind)).toBe(false);
      expect(emulator.glossaries.size).toBe(0);
      // The account's own glossary, or one of ours still young (a request in flight), is never swept:
      // the request is translated without a glossary.
      const own = { name: "The team's own", source_lang: 'en', target_lang: 'de', entries: [['a', 'b']] as [string, string][], creation_time: new Date(Date.now() - 60 * 60_000).toISOString() };
      emulator.glossaries.set('emulated-own', own);
      expect(await deepl().translate({ texts: ['Save the dashboard'], from: 'en', to: 'de', glossary })).toEqual(['Speichern THE DASHBOARD']);
      expect([...emulator.glossaries.keys()]).toEqual(['emulated-own']);
      emulator.glossaries.clear();
      emulator.glossaries.set('emulated-young', { ...own, name: 'tms machine translation', creation_time: new Date().toISOString() });
      expect(await deepl().translate({ texts: ['Save the dashboard'], from: 'en', to: 'de', glossary })).toEqual(['Speichern THE DASHBOARD']);
      expect([...emulator.glossaries.keys()]).toEqual(['emulated-young']);
    } finally {
      emulator.glossaryLimit(1_000);
      emulator.glossaries.clear();
    }
  });

  it('a slow glossary endpoint never shortens the translation: done without, the translation within its own timeout', async () => {
    // Creation answers after the glossary's share of the timeout (a quarter of 2 s): done without.
    const slow = deeplTranslator({
      apiKey: EMULATOR_KEYS.deepl,
      url: emulator.url,
      timeoutMs: 2000,
      fetch: (async (url: string | URL | Request, init?: RequestInit) => {
        if (String(url).endsWith('/v2/glossaries') && init?.method === 'POST') await new Promise((resolve) => setTimeout(resolve, 900));
        return fetch(url, init);
      }) as typeof fetch,
    });
    expect(await slow.translate({ texts: ['Save the dashboard'], from: 'en', to: 'de', glossary })).toEqual(['Speichern THE DASHBOARD']);
  });
});
