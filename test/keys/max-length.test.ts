// Character limits through the API (docs/decisions.md, "Character limits"): a key's max_length on
// create, PATCH, the listing and by id; the max_length check in the answers of PUT, imports and the
// problems filter; as a blocking check, approvals over the limit refused (PUT, bulk status, import)
// with nothing written, while drafts over it are kept. Bad limits are 422s that write nothing.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { keysWithProblems } from '../../core/quality/keys-with-problems.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

async function project(): Promise<TestProject> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  return p;
}

const createKey = (p: TestProject, body: Record<string, unknown>) => t.call(p.apiKey, 'POST', '/v1/keys', body);
const put = (p: TestProject, keyId: string, language: string, value: string, status = 'draft') =>
  t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${language}`, { value, status });
const block = (p: TestProject, checks: string[]) => t.admin('PATCH', `/projects/${p.projectId}`, { quality_blocking: checks });
const importJson = (p: TestProject, language: string, file: Record<string, string>, status: string) =>
  t.app.request(`/v1/import/${language}?format=json&status=${status}`, {
    method: 'POST',
    headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(file),
  });

describe('a key with a character limit', () => {
  it('is written on create and PATCH, read back everywhere, and removed with null', async () => {
    const p = await project();
    const created = await json(await createKey(p, { key: 'button.save', max_length: 12 }));
    expect(created).toMatchObject({ key: 'button.save', max_length: 12 });
    expect((await json(await createKey(p, { key: 'plain' }))).max_length).toBeNull();
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/keys/${created.id}`))).max_length).toBe(12);

    const patched = await json(await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { max_length: 20 }));
    expect(patched).toMatchObject({ id: created.id, updated: true, max_length: 20 });
    // Other fields leave it alone; null removes it.
    await json(await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { description: 'The save button' }));
    const listed = await json(await t.call(p.apiKey, 'GET', '/v1/keys?search=button'));
    expect(listed.keys.map((k: { key: string; max_length: number | null; description: string }) => [k.key, k.max_length, k.description])).toEqual([
      ['button.save', 20, 'The save button'],
    ]);
    expect((await json(await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { max_length: null }))).max_length).toBeNull();
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/keys/${created.id}`))).max_length).toBeNull();
  });

  it('records the change in key.updated, and a PATCH to the same limit records nothing', async () => {
    const p = await project();
    const created = await json(await createKey(p, { key: 'k', max_length: 5 }));
    await json(await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { max_length: 8 }));
    await json(await t.call(p.apiKey, 'PATCH', `/v1/keys/${created.id}`, { max_length: 8 }));
    const events = await sql()<{ type: string; before: { max_length: number }; after: { max_length: number } }[]>`
      select type, before, after from domain_events where project_id = ${p.projectId} and entity_id = ${created.id} order by id`;
    expect(events.map((e) => [e.type, e.before?.max_length ?? null, e.after?.max_length ?? null])).toEqual([
      ['key.created', null, 5],
      ['key.updated', 5, 8],
    ]);
  });

  it('refuses a limit that is not an integer from 1 to 10000 with a 422 naming max_length, writing nothing', async () => {
    const p = await project();
    const k = await json(await createKey(p, { key: 'k', max_length: 7 }));
    for (const bad of [0, -1, 10_001, 1.5, '12', true, [], {}]) {
      const res = await createKey(p, { key: 'odd', max_length: bad });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      const body = await res.json();
      expect(body.detail[0].loc, JSON.stringify(bad)).toEqual(['body', 'max_length']);
      expect(body.detail[0].msg).toMatch(/max_length must be an integer from 1 to 10000, or null/);
      expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${k.id}`, { max_length: bad })).status, JSON.stringify(bad)).toBe(422);
    }
    expect((await json(await t.call(p.apiKey, 'GET', '/v1/keys'))).keys.map((x: { key: string; max_length: number }) => [x.key, x.max_length])).toEqual([['k', 7]]);
    // The largest limit is accepted.
    expect((await json(await createKey(p, { key: 'long', max_length: 10_000 }))).max_length).toBe(10_000);
  });
});

describe('the max_length check where values are written', () => {
  it('warns in a PUT answer, in every language, the source included', async () => {
    const p = await project();
    const k = await json(await createKey(p, { key: 'button.save', max_length: 9 }));
    const source = await json(await put(p, k.id, 'en', 'Save and close', 'approved'));
    expect(source.warnings).toEqual([{ check: 'max_length', message: "14 characters, over the key's limit of 9" }]);
    expect((await json(await put(p, k.id, 'de', 'Speichern'))).warnings).toEqual([]);
    const over = await json(await put(p, k.id, 'de', '{n, plural, one {# Datei} other {# Dateien hier}}'));
    expect(over.warnings.filter((w: { check: string }) => w.check === 'max_length')).toEqual([
      { check: 'max_length', message: "14 characters (its longest form), over the key's limit of 9" },
    ]);
    // A key without a limit: no such warning, however long.
    const free = await json(await createKey(p, { key: 'free' }));
    expect((await json(await put(p, free.id, 'de', 'x'.repeat(500)))).warnings).toEqual([]);
  });

  it('as a blocking check refuses an approval over the limit, keeps a draft, and reads the limit as it is now', async () => {
    const p = await project();
    await json(await block(p, ['max_length']));
    const k = await json(await createKey(p, { key: 'button.save', max_length: 9 }));
    const refused = await put(p, k.id, 'de', 'Speichern!', 'approved');
    expect(refused.status).toBe(422);
    const body = await refused.json();
    expect(body.detail[0]).toMatchObject({ loc: ['body', 'value'], type: 'quality.max_length' });
    expect(body.detail[0].msg).toMatch(/over the key's limit of 9/);
    expect((await t.call(p.apiKey, 'GET', `/v1/keys/${k.id}/translations/de`)).status).toBe(404);
    // A draft is a translator's work in progress: kept, with the warning.
    expect((await json(await put(p, k.id, 'de', 'Speichern!'))).warnings.map((w: { check: string }) => w.check)).toEqual(['max_length']);
    // Raise the limit and the same approval goes through.
    await json(await t.call(p.apiKey, 'PATCH', `/v1/keys/${k.id}`, { max_length: 10 }));
    expect((await json(await put(p, k.id, 'de', 'Speichern!', 'approved'))).status).toBe('approved');
  });

  it('blocks a bulk approval as a whole, naming the key over its limit', async () => {
    const p = await project();
    await json(await block(p, ['max_length']));
    const good = await json(await createKey(p, { key: 'good', max_length: 20 }));
    const bad = await json(await createKey(p, { key: 'bad', max_length: 3 }));
    await json(await put(p, good.id, 'de', 'Gut'));
    await json(await put(p, bad.id, 'de', 'Schlecht'));
    const res = await t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [good.id, bad.id], languages: ['de'], status: 'approved' });
    expect(res.status).toBe(422);
    const detail = (await res.json()).detail;
    expect(detail).toHaveLength(1);
    expect(detail[0].type).toBe('quality.max_length');
    expect(detail[0].msg).toMatch(/^bad \(de\) cannot be approved: 8 characters, over the key's limit of 3/);
    const statuses = await sql()<{ status: string }[]>`select status from translations where project_id = ${p.projectId} order by status`;
    expect(statuses.map((s) => s.status)).toEqual(['draft', 'draft']);
  });

  it("judges an import's values against their keys' limits: warnings listed, an approved file over a blocking limit refused whole", async () => {
    const p = await project();
    await json(await createKey(p, { key: 'title', max_length: 5 }));
    await json(await createKey(p, { key: 'body' }));
    const warned = await json(await importJson(p, 'de', { title: 'Willkommen', body: 'Ein langer Text ohne Grenze' }, 'draft'));
    expect(warned.quality_warnings).toEqual({ count: 1, values: [{ key: 'title', check: 'max_length', message: "10 characters, over the key's limit of 5" }] });

    await json(await block(p, ['max_length']));
    const refused = await importJson(p, 'de', { title: 'Hallo Welt', body: 'Text' }, 'approved');
    expect(refused.status).toBe(422);
    expect((await refused.json()).detail[0]).toMatchObject({ loc: ['file', 'title'], type: 'quality.max_length' });
    const stored = await sql()<{ value: string; status: string }[]>`select value, status from translations where project_id = ${p.projectId} order by value`;
    expect(stored.map((s) => [s.value, s.status])).toEqual([
      ['Ein langer Text ohne Grenze', 'draft'],
      ['Willkommen', 'draft'],
    ]);
  });

  it('lists a key over its limit under "has problems in" its language, and not once the limit is raised', async () => {
    const p = await project();
    const k = await json(await createKey(p, { key: 'banner', max_length: 6 }));
    await json(await createKey(p, { key: 'fine', max_length: 20 }));
    await json(await put(p, k.id, 'de', 'Sonderangebot'));
    const scan = () => keysWithProblems(t.runtime.deps, { projectId: p.projectId, language: 'de', sourceLanguage: 'en', limit: 10 });
    const found = await scan();
    expect(found.keys.map((x) => [x.key, x.max_length, x.warnings.map((w) => w.check)])).toEqual([['banner', 6, ['max_length']]]);
    await json(await t.call(p.apiKey, 'PATCH', `/v1/keys/${k.id}`, { max_length: 13 }));
    expect((await scan()).keys).toEqual([]);
  });

  it('one project\'s limits never judge another\'s values', async () => {
    const p = await project();
    const q = await project();
    const limited = await json(await createKey(p, { key: 'same', max_length: 2 }));
    const open = await json(await createKey(q, { key: 'same' }));
    expect((await json(await put(q, open.id, 'de', 'Lang genug'))).warnings).toEqual([]);
    expect((await t.call(q.apiKey, 'PATCH', `/v1/keys/${limited.id}`, { max_length: 100 })).status).toBe(404);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/keys/${limited.id}`))).max_length).toBe(2);
  });
});

describe('character limits in files', () => {
  it('XLIFF 1.2 carries each limit as maxwidth in characters, untranslated units too, and reads back without it', async () => {
    const p = await project();
    const save = await json(await createKey(p, { key: 'button.save', max_length: 12 }));
    const title = await json(await createKey(p, { key: 'title', max_length: 40 }));
    const free = await json(await createKey(p, { key: 'free' }));
    for (const [k, text] of [[save, 'Save'], [title, 'Welcome'], [free, 'Anything']] as const) await json(await put(p, k.id, 'en', text, 'approved'));
    await json(await put(p, save.id, 'de', 'Speichern'));
    const res = await t.call(p.apiKey, 'GET', '/v1/export/de?format=xliff&source=en&status=all');
    expect(res.status).toBe(200);
    const xml = await res.text();
    const units = [...xml.matchAll(/<trans-unit [^>]*>/g)].map((m) => m[0]);
    expect(units).toEqual([
      '<trans-unit id="button.save" datatype="html" maxwidth="12" size-unit="char">',
      '<trans-unit id="free" datatype="html">',
      // No German value yet: the translator's CAT tool still gets the limit.
      '<trans-unit id="title" datatype="html" maxwidth="40" size-unit="char">',
    ]);
    // The file a translator sends back imports as any XLIFF; the limits stay the keys'.
    const back = await t.app.request('/v1/import/de?format=xliff&status=draft', {
      method: 'POST',
      headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/xliff+xml' },
      body: xml.replace('<target>Speichern</target>', '<target>Speichern und schließen</target>'),
    });
    const answer = await json(back);
    expect(answer.values_updated).toBe(1);
    expect(answer.quality_warnings.values.filter((w: { check: string }) => w.check === 'max_length')).toEqual([
      { key: 'button.save', check: 'max_length', message: "23 characters, over the key's limit of 12" },
    ]);
    expect((await json(await t.call(p.apiKey, 'GET', `/v1/keys/${save.id}`))).max_length).toBe(12);
    // JSON files carry no limit: the same bytes as before.
    expect(await (await t.call(p.apiKey, 'GET', '/v1/export/de?format=json&status=all')).text()).toBe('{\n  "button.save": "Speichern und schließen"\n}\n');
  });
});
