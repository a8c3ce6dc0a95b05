// Character limits in the portal's editor (core/keys/schemas.ts max_length, the max_length check):
// the New key form's and the key form's "Character limit" field (empty: none; anything but a whole
// number from 1 to 10000 refused at the field with the typed text kept and nothing written); the key
// form writes the limit only when changed from what the page showed (412 when a colleague changed
// it meanwhile); the key's row says "Limit: N characters" and each value a count against it, tied
// to its field (aria-describedby), over the limit in words; and changing it is keys.manage's.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { decode, formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;

let n = 0;
const unique = (prefix: string) => `limit.${prefix}.${Date.now().toString(36)}${n++}`;

async function newKey(key: string, body: Record<string, unknown> = {}, values: Record<string, string> = {}): Promise<string> {
  const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, ...body });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { id: string }).id;
  for (const [language, value] of Object.entries(values)) expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/${language}`, { value })).status).toBe(200);
  return id;
}

const limitOf = async (keyId: string) => (await t.runtime.deps.sql<{ max_length: number | null }[]>`select max_length from translation_keys where id = ${keyId}`)[0]!.max_length;
const keysNamed = async (key: string) => (await t.runtime.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} and key = ${key}`).length;
const editor = (query: string) => `/portal/projects/${p.projectId}?${query}`;
const keyForm = (keyId: string) => `/portal/projects/${p.projectId}/keys/${keyId}`;
const newKeyForm = () => `/portal/projects/${p.projectId}/keys`;
/** The HTML of the first form posting to `action`. */
const formHtml = (html: string, action: string) => new RegExp(`<form[^>]*action="${action}"[^>]*>([^]*?)</form>`).exec(html)![1]!;
/** The key's name cell: from its name to the end of its header cell. */
const keyCell = (html: string, key: string) => new RegExp(`<span class="mono keyname">${key.replace(/\./g, '\\.')}</span>([^]*?)</th>`).exec(html)![1]!;
/** The value's textarea tag and its counter's text (or null: no counter). */
function valueOf(html: string, keyId: string, language: string) {
  const id = `v-${keyId}-${language}`;
  const textarea = new RegExp(`<textarea id="${id}"[^>]*>`).exec(html)![0];
  const counter = new RegExp(`<p id="${id}-len" class="([^"]*)">([^<]*)</p>`).exec(html);
  return { id, textarea, counterClass: counter?.[1] ?? null, counter: counter ? decode(counter[2]!) : null };
}

/** The field's input and the message its aria-describedby names, in a refused page. */
function refusedField(html: string, action: string) {
  const form = formHtml(html, action);
  const input = /<input name="max_length"[^>]*>/.exec(form)![0];
  const described = /aria-describedby="([^"]+)"/.exec(input)?.[1];
  const message = described ? decode(new RegExp(`<p id="${described}"[^>]*>([^<]*)</p>`).exec(html)?.[1] ?? '') : '';
  return { input, message };
}

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  dev = await signedInMember(t, p.accountId, 'developer');
});

describe('the New key form', () => {
  it('has a Character limit field, and creates a key with the limit typed (spaces around it ignored)', async () => {
    const page = await dev.get(editor('lang=de'));
    const input = /<input name="max_length"[^>]*>/.exec(formHtml(page.text, newKeyForm()))![0];
    expect(input).toContain('type="number"');
    expect(input).toContain('min="1"');
    expect(input).toContain('max="10000"');
    expect(input).toContain('inputmode="numeric"');
    expect(decode(formHtml(page.text, newKeyForm()))).toContain('Character limit <span class="hint">(optional: the most characters a value should have)</span>');

    const key = unique('created');
    const res = await dev.post(newKeyForm(), { key, group_name: '', description: '', tags: '', max_length: ' 30 ', return_to: editor('lang=de') });
    expect(res.status).toBe(303);
    const listed = (await (await t.call(p.apiKey, 'GET', `/v1/keys?search=${key}`)).json()) as { keys: { key: string; max_length: number | null }[] };
    expect(listed.keys).toEqual([expect.objectContaining({ key, max_length: 30 })]);

    // Left empty: no limit.
    const plain = unique('plain');
    expect((await dev.post(newKeyForm(), { key: plain, max_length: '' })).status).toBe(303);
    const none = (await (await t.call(p.apiKey, 'GET', `/v1/keys?search=${plain}`)).json()) as { keys: { max_length: number | null }[] };
    expect(none.keys.map((k) => k.max_length)).toEqual([null]);
  });

  it.each(['abc', '0', '10001', '1.5', '1e3', '-1', '1'.repeat(40), '3 0', '\u0000'])('refuses %j at the field, the typed text kept, and creates nothing', async (typed) => {
    const key = unique('odd');
    const res = await dev.post(newKeyForm(), { key, max_length: typed, return_to: editor('lang=de') });
    expect(res.status).toBe(422);
    const { input, message } = refusedField(res.text, newKeyForm());
    expect(input).toContain('aria-invalid="true"');
    expect(message).toBe('the character limit must be a whole number from 1 to 10000, or empty for none');
    expect(decode(input)).toContain(`value="${typed}"`);
    // The other fields keep what was typed too, and the form is open.
    expect(decode(formHtml(res.text, newKeyForm()))).toContain(`value="${key}"`);
    expect(res.text).toMatch(/<details class="card" open="">\s*<summary>New key<\/summary>/);
    expect(await keysNamed(key)).toBe(0);
  });
});

describe('the limit in the editor', () => {
  it('says the limit beside the key and counts each value against it, tied to the field', async () => {
    const key = unique('shown');
    const keyId = await newKey(key, { max_length: 30 }, { en: 'Welcome back', de: 'Willkommen 👋🏽' });
    const html = (await dev.get(editor(`q=${key}&lang=en&lang=de`))).text;
    expect(keyCell(html, key)).toContain('<p class="hint">Limit: 30 characters</p>');

    const en = valueOf(html, keyId, 'en');
    expect(en.counter).toBe('12 / 30 characters');
    expect(en.counterClass).toBe('hint counter');
    expect(en.textarea).toContain('data-max-length="30"');
    expect(/aria-describedby="([^"]+)"/.exec(en.textarea)![1]!.split(' ')).toContain(`${en.id}-len`);
    // Graphemes, as the check counts them: the waving hand with its skin tone is one.
    expect(valueOf(html, keyId, 'de').counter).toBe('12 / 30 characters');
    // Never a live region: read with the field, not announced at each key.
    expect(new RegExp(`<p id="${en.id}-len"[^>]*>`).exec(html)![0]).not.toContain('aria-live');
  });

  it('counts a missing value as 0, and shows no count for a key without a limit', async () => {
    const limited = unique('empty');
    const limitedId = await newKey(limited, { max_length: 1 });
    const free = unique('free');
    const freeId = await newKey(free, {}, { de: 'Hallo' });
    const html = (await dev.get(editor(`q=limit.&lang=de`))).text;
    expect(keyCell(html, limited)).toContain('Limit: 1 character<');
    expect(valueOf(html, limitedId, 'de').counter).toBe('0 / 1 characters');

    expect(keyCell(html, free)).not.toContain('Limit:');
    const value = valueOf(html, freeId, 'de');
    expect(value.counter).toBeNull();
    expect(value.textarea).not.toContain('data-max-length');
    expect(value.textarea).not.toContain('-len');
  });

  it('says by how much a value is over, in words, with the Character limit warning', async () => {
    const key = unique('over');
    const keyId = await newKey(key, { max_length: 30 }, { de: 'x'.repeat(34) });
    const html = (await dev.get(editor(`q=${key}&lang=de`))).text;
    const value = valueOf(html, keyId, 'de');
    expect(value.counter).toBe('34 / 30 characters: 4 over');
    expect(value.counterClass).toBe('hint counter over');
    expect(decode(html)).toContain("Character limit: 34 characters, over the key's limit of 30");
  });

  it('counts a plural by its longest form, as the check does', async () => {
    const key = unique('plural');
    const keyId = await newKey(key, { max_length: 10 }, { de: '{n, plural, one {ein Apfel} other {# Äpfel im Korb}}' });
    const html = (await dev.get(editor(`q=${key}&lang=de`))).text;
    expect(valueOf(html, keyId, 'de').counter).toBe('15 / 10 characters (its longest form): 5 over');
    expect(decode(html)).toContain("Character limit: 15 characters (its longest form), over the key's limit of 10");
  });

  it("counts the refused text a value form comes back with", async () => {
    const key = unique('refused');
    const keyId = await newKey(key, { max_length: 5 }, { de: 'Hallo' });
    const page = editor(`q=${key}&lang=de`);
    const fields = formFields((await dev.get(page)).text, `/portal/projects/${p.projectId}/keys/${keyId}/values/de`);
    // Someone else saves meanwhile: the form comes back with the typed text, counted.
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Servus' })).status).toBe(200);
    const res = await dev.post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de`, { ...fields, value: 'Guten Tag', status: 'draft', return_to: page });
    expect(res.status).toBe(412);
    expect(valueOf(res.text, keyId, 'de').counter).toBe('9 / 5 characters: 4 over');
  });
});

describe("the key form's Character limit", () => {
  it('changes the limit, leaves it alone when unchanged, and clears it when emptied', async () => {
    const key = unique('edit');
    const keyId = await newKey(key, { max_length: 30 });
    const page = editor(`q=${key}&lang=de`);
    const fields = formFields((await dev.get(page)).text, keyForm(keyId));
    expect(fields).toMatchObject({ max_length: '30', max_length_was: '30' });

    expect((await dev.post(keyForm(keyId), { ...fields, max_length: '12', return_to: page })).status).toBe(303);
    expect(await limitOf(keyId)).toBe(12);
    expect(keyCell((await dev.get(page)).text, key)).toContain('Limit: 12 characters');

    // Another field saved with the limit as shown: a colleague's change to the limit meanwhile stays.
    const again = formFields((await dev.get(page)).text, keyForm(keyId));
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${keyId}`, { max_length: 40 })).status).toBe(200);
    expect((await dev.post(keyForm(keyId), { ...again, description: 'On the home screen' })).status).toBe(303);
    expect(await limitOf(keyId)).toBe(40);

    const now = formFields((await dev.get(page)).text, keyForm(keyId));
    expect(now).toMatchObject({ max_length: '40', max_length_was: '40' });
    expect((await dev.post(keyForm(keyId), { ...now, max_length: '' })).status).toBe(303);
    expect(await limitOf(keyId)).toBeNull();
    const cleared = (await dev.get(page)).text;
    expect(keyCell(cleared, key)).not.toContain('Limit:');
    // A key without a limit: the field and what the page showed are empty.
    expect(formFields(cleared, keyForm(keyId))).toMatchObject({ max_length: '', max_length_was: '' });
    // Set again from none.
    expect((await dev.post(keyForm(keyId), { ...formFields(cleared, keyForm(keyId)), max_length: '7' })).status).toBe(303);
    expect(await limitOf(keyId)).toBe(7);
  });

  it('refuses (412) a change to a limit a colleague changed since the page was loaded, keeping the typed text', async () => {
    const key = unique('stale');
    const keyId = await newKey(key, { max_length: 30 });
    const page = editor(`q=${key}&lang=de`);
    const fields = formFields((await dev.get(page)).text, keyForm(keyId));
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${keyId}`, { max_length: null })).status).toBe(200);

    const res = await dev.post(keyForm(keyId), { ...fields, max_length: '25', return_to: page });
    expect(res.status).toBe(412);
    expect(decode(res.text)).toContain("someone else changed this key's character limit since the page was loaded");
    expect(await limitOf(keyId)).toBeNull();
    const shown = formFields(res.text, keyForm(keyId));
    expect(shown).toMatchObject({ max_length: '25', max_length_was: '' });
    expect((await dev.post(keyForm(keyId), shown)).status).toBe(303);
    expect(await limitOf(keyId)).toBe(25);
  });

  it.each(['abc', '0', '10001', '1.5', '1e3', '-1', '9'.repeat(40)])('refuses %j at the field, the typed text kept, and writes nothing', async (typed) => {
    const key = unique('bad');
    const keyId = await newKey(key, { max_length: 30 });
    const page = editor(`q=${key}&lang=de`);
    const fields = formFields((await dev.get(page)).text, keyForm(keyId));
    const res = await dev.post(keyForm(keyId), { ...fields, group_name: 'moved', max_length: typed, return_to: page });
    expect(res.status).toBe(422);
    const { input, message } = refusedField(res.text, keyForm(keyId));
    expect(input).toContain('aria-invalid="true"');
    expect(message).toBe('the character limit must be a whole number from 1 to 10000, or empty for none');
    expect(decode(input)).toContain(`value="${typed}"`);
    // The key's form is open again, its other typed fields kept.
    expect(formFields(res.text, keyForm(keyId))).toMatchObject({ group_name: 'moved', max_length: typed });
    const [row] = await t.runtime.deps.sql<{ max_length: number | null; group_name: string }[]>`select max_length, group_name from translation_keys where id = ${keyId}`;
    expect(row).toEqual({ max_length: 30, group_name: 'Default' });
  });

  it('records a change of the limit as the key changed (Activity), and none for the same limit', async () => {
    const key = unique('events');
    const keyId = await newKey(key, { max_length: 30 });
    const page = editor(`q=${key}&lang=de`);
    const events = async () => (await t.runtime.deps.sql<{ type: string }[]>`select type from domain_events where entity_id = ${keyId} order by id`).map((e) => e.type);
    const before = await events();
    const fields = formFields((await dev.get(page)).text, keyForm(keyId));
    // "030" is the 30 shown: nothing changes, nothing is recorded.
    expect((await dev.post(keyForm(keyId), { ...fields, max_length: '030' })).status).toBe(303);
    expect(await events()).toEqual(before);
    expect((await dev.post(keyForm(keyId), { ...fields, max_length: '31' })).status).toBe(303);
    expect(await events()).toEqual([...before, 'key.updated']);
  });
});

describe('permissions: the limit is the key form\'s (keys.manage)', () => {
  it.each(['translator', 'reviewer'])('a %s sees the limit and the count, but may not change it', async (role) => {
    const member = await signedInMember(t, p.accountId, role);
    const key = unique(`perm.${role}`);
    const keyId = await newKey(key, { max_length: 30 }, { de: 'Hallo' });
    const html = (await member.get(editor(`q=${key}&lang=de`))).text;
    expect(keyCell(html, key)).toContain('Limit: 30 characters');
    expect(valueOf(html, keyId, 'de').counter).toBe('5 / 30 characters');
    expect(html).not.toContain('name="max_length"');
    expect(html).not.toContain('name="max_length_was"');

    const edit = await member.post(keyForm(keyId), { group_name: 'Default', max_length: '5', max_length_was: '30' });
    expect(edit.status).toBe(403);
    const create = await member.post(newKeyForm(), { key: `${key}.new`, max_length: '5' });
    expect(create.status).toBe(403);
    expect(await limitOf(keyId)).toBe(30);
    expect(await keysNamed(`${key}.new`)).toBe(0);
  });
});
