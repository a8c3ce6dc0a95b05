// `tms mcp` as an agent's MCP client runs it: a child process on stdio, driven by the official
// SDK's own client, against a real tms server over HTTP.
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestProject } from '../support/test-app.ts';

const BIN = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'tms.js');

let t: Awaited<ReturnType<typeof startTestApp>>;
let server: ServerType;
let base: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await new Promise((resolve) => server.close(resolve));
  await t?.close();
});

async function connect(apiKey: string, args: string[] = ['--server', base]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMS_API_KEY: apiKey },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'tms-test-agent', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[])[0]!.text;
const jsonOf = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.parse(textOf(result));

describe('tms mcp', () => {
  let p: TestProject;
  let agent: Client;
  beforeAll(async () => {
    p = await t.newProject('team');
    for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    agent = await connect(p.apiKey);
  }, 60_000);

  it('lists its tools, each with an input schema', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['add_comment', 'add_glossary_term', 'cache_status', 'create_key', 'create_task', 'export_file', 'get_glossary', 'get_key', 'get_screenshots', 'get_task', 'get_translations', 'get_value', 'import_file', 'list_comments', 'list_keys', 'list_tasks', 'mark_up_to_date', 'publish', 'resolve_comment', 'set_translation', 'suggest_translations', 'tag_keys', 'translate_missing'].sort(),
    );
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    expect(tools.find((tool) => tool.name === 'get_translations')!.annotations?.readOnlyHint).toBe(true);
  });

  it('creates a key, writes values, reads them back, and publishes, through the API', async () => {
    const key = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'home.title', group_name: 'home', description: 'Title' } }));
    expect(key).toMatchObject({ key: 'home.title', group_name: 'home', project_id: p.projectId });
    expect(jsonOf(await agent.callTool({ name: 'get_key', arguments: { key_id: key.id } }))).toMatchObject({ id: key.id, key: 'home.title' });
    await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'en', value: 'Welcome', status: 'approved' } });
    const written = jsonOf(await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'de', value: 'Willkommen' } }));
    expect(written).toMatchObject({ value: 'Willkommen', status: 'draft' });

    const drafts = jsonOf(await agent.callTool({ name: 'get_translations', arguments: { language: 'de', status: 'draft' } }));
    expect(drafts.translations).toEqual({ 'home.title': 'Willkommen' });
    const listed = jsonOf(await agent.callTool({ name: 'list_keys', arguments: { group: 'home' } }));
    expect(listed.keys.map((k: { key: string }) => k.key)).toEqual(['home.title']);

    const exported = textOf(await agent.callTool({ name: 'export_file', arguments: { language: 'en', format: 'json' } }));
    expect(JSON.parse(exported)).toEqual({ 'home.title': 'Welcome' });
    const preview = jsonOf(await agent.callTool({ name: 'import_file', arguments: { language: 'en', format: 'json', content: '{"home.title": "Hello", "home.new": "New"}', dry_run: true } }));
    expect(preview).toMatchObject({ dry_run: true, keys_created: 1, values_updated: 1 });
    expect((await t.call(p.apiKey, 'GET', '/v1/keys')).status).toBe(200);

    expect(jsonOf(await agent.callTool({ name: 'suggest_translations', arguments: { key_id: key.id, language: 'de' } }))).toMatchObject({ source: { language: 'en', value: 'Welcome' } });
    expect(jsonOf(await agent.callTool({ name: 'translate_missing', arguments: { language: 'de', dry_run: true } }))).toMatchObject({ dry_run: true, language: 'de' });

    expect(jsonOf(await agent.callTool({ name: 'publish', arguments: {} }))).toBeTypeOf('object');
    const status = jsonOf(await agent.callTool({ name: 'cache_status', arguments: {} }));
    expect(status).toHaveProperty('ready');
  });

  it("creates a key with a character limit, and set_translation answers the max_length warning a longer value gets", async () => {
    const key = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'button.ok', max_length: 5 } }));
    expect(key).toMatchObject({ key: 'button.ok', max_length: 5 });
    expect(jsonOf(await agent.callTool({ name: 'get_key', arguments: { key_id: key.id } })).max_length).toBe(5);
    const written = jsonOf(await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'de', value: 'Einverstanden' } }));
    expect(written.warnings).toEqual([{ check: 'max_length', message: "13 characters, over the key's limit of 5" }]);
    // A limit the API refuses is refused before any call, by the tool's own schema.
    const refused = await agent.callTool({ name: 'create_key', arguments: { key: 'button.no', max_length: 0 } });
    expect(refused.isError).toBe(true);
    expect((await t.call(p.apiKey, 'GET', '/v1/keys?search=button.no')).status).toBe(200);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys?search=button.no')).json()).keys).toEqual([]);
  });

  it('writes over what it read only: set_translation with the version get_value returned is refused once someone else wrote', async () => {
    const key = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'home.typo' } }));
    await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'de', value: 'Wilkommen', status: 'approved' } });
    const read = jsonOf(await agent.callTool({ name: 'get_value', arguments: { key_id: key.id, language: 'de' } }));
    expect(read).toMatchObject({ value: 'Wilkommen', status: 'approved', version: expect.any(Number) });
    const { tools } = await agent.listTools();
    expect(tools.find((tool) => tool.name === 'get_value')!.annotations?.readOnlyHint).toBe(true);

    // A reviewer fixes it meanwhile; the agent's fix, made from what it read, does not overwrite theirs.
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Willkommen!', status: 'approved' })).status).toBe(200);
    const stale = await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'de', value: 'Willkommen', status: 'approved', version: read.version } });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/412/);
    expect(jsonOf(await agent.callTool({ name: 'get_value', arguments: { key_id: key.id, language: 'de' } }))).toMatchObject({ value: 'Willkommen!' });

    const current = jsonOf(await agent.callTool({ name: 'get_value', arguments: { key_id: key.id, language: 'de' } }));
    const written = jsonOf(await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'de', value: 'Willkommen', status: 'approved', version: current.version } }));
    expect(written).toMatchObject({ value: 'Willkommen', status: 'approved' });
    expect(written.version).toBeGreaterThan(current.version);
  });

  it('finds the values outdated by a source change and marks one up to date over the version it read', async () => {
    const key = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'home.outdated' } }));
    await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'en', value: 'Save', status: 'approved' } });
    await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'de', value: 'Speichern', status: 'approved' } });
    await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'en', value: 'Save changes', status: 'approved' } });
    const listed = jsonOf(await agent.callTool({ name: 'list_keys', arguments: { outdated: 'de' } }));
    expect(listed.keys.map((k: { key: string }) => k.key)).toEqual(['home.outdated']);
    const read = jsonOf(await agent.callTool({ name: 'get_value', arguments: { key_id: key.id, language: 'de' } }));
    expect(read).toMatchObject({ value: 'Speichern', outdated: true });

    // Someone rewrites it meanwhile: the agent's mark, made from what it read, is refused.
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Speichern', status: 'review' })).status).toBe(200);
    const stale = await agent.callTool({ name: 'mark_up_to_date', arguments: { key_id: key.id, language: 'de', version: read.version } });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/412/);
    const current = jsonOf(await agent.callTool({ name: 'get_value', arguments: { key_id: key.id, language: 'de' } }));
    const marked = jsonOf(await agent.callTool({ name: 'mark_up_to_date', arguments: { key_id: key.id, language: 'de', version: current.version } }));
    expect(marked).toMatchObject({ value: 'Speichern', status: 'review', outdated: false, version: current.version });
    expect(jsonOf(await agent.callTool({ name: 'list_keys', arguments: { outdated: 'de' } })).keys).toEqual([]);
  });

  it("reads a reviewer's comments on a value and answers in the thread", async () => {
    const key = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'cart.checkout', group_name: 'cart' } }));
    expect((await t.call(p.apiKey, 'POST', `/v1/keys/${key.id}/translations/de/comments`, { text: 'Use "Zur Kasse", as the web shop does' })).status).toBe(201);
    const read = jsonOf(await agent.callTool({ name: 'list_comments', arguments: { key_id: key.id, language: 'de' } }));
    expect(read.comments.map((c: { text: string }) => c.text)).toEqual(['Use "Zur Kasse", as the web shop does']);
    const added = jsonOf(await agent.callTool({ name: 'add_comment', arguments: { key_id: key.id, language: 'de', text: 'Done: "Zur Kasse"' } }));
    expect(added).toMatchObject({ key_id: key.id, language: 'de', text: 'Done: "Zur Kasse"', author: { type: 'api_key' } });
    const unknown = await agent.callTool({ name: 'list_comments', arguments: { key_id: key.id, language: 'it' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/404/);
  });

  it('finds the keys with open review notes and resolves the ones it acted on', async () => {
    const key = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'cart.pay', group_name: 'cart' } }));
    const note = (await (await t.call(p.apiKey, 'POST', `/v1/keys/${key.id}/translations/de/comments`, { text: 'Too long for the button' })).json()) as { id: string };
    const open = jsonOf(await agent.callTool({ name: 'list_keys', arguments: { open_comments: 'de' } }));
    expect(open.keys.map((k: { key: string }) => k.key)).toContain('cart.pay');
    const resolved = jsonOf(await agent.callTool({ name: 'resolve_comment', arguments: { key_id: key.id, language: 'de', comment_id: note.id, resolved: true } }));
    expect(resolved).toMatchObject({ id: note.id, resolved_by: { type: 'api_key' } });
    expect(jsonOf(await agent.callTool({ name: 'list_keys', arguments: { open_comments: 'de' } })).keys.map((k: { key: string }) => k.key)).not.toContain('cart.pay');
  });

  it('offers every text format to import and export, and not xlsx, whose bytes a tool\'s text would corrupt (found by review)', async () => {
    const { tools } = await agent.listTools();
    for (const name of ['import_file', 'export_file']) {
      const format = (tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, { enum?: string[] }>).format!;
      expect(format.enum, name).toContain('properties');
      expect(format.enum, name).not.toContain('xlsx');
    }
    const refused = await agent.callTool({ name: 'export_file', arguments: { language: 'de', format: 'xlsx' } });
    expect(refused.isError).toBe(true);
  });

  it('exports xliff and xliff2 with the source language they need (as pull sends it)', async () => {
    for (const format of ['xliff', 'xliff2']) {
      const result = await agent.callTool({ name: 'export_file', arguments: { language: 'de', format, source: 'en', status: 'all' } });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result)).toContain('Willkommen');
      expect(textOf(result)).toContain('Welcome');
    }
  });

  it('tags keys: create_key with tags, list_keys by tag, tag_keys over ids (all or nothing), import and export by tag', async () => {
    const one = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'tags.one', group_name: 'tags', tags: ['web', 'mobile'] } }));
    expect(one.tags).toEqual(['mobile', 'web']);
    const two = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'tags.two', group_name: 'tags' } }));
    const byTag = async (tag: string) => jsonOf(await agent.callTool({ name: 'list_keys', arguments: { tag } })).keys.map((k: { key: string }) => k.key);
    expect(await byTag('mobile')).toEqual(['tags.one']);

    expect(jsonOf(await agent.callTool({ name: 'tag_keys', arguments: { key_ids: [one.id, two.id], add: ['release-2.3'], remove: ['web'] } }))).toMatchObject({ changed: 2 });
    expect(await byTag('release-2.3')).toEqual(['tags.one', 'tags.two']);
    expect(await byTag('web')).toEqual([]);
    const refused = await agent.callTool({ name: 'tag_keys', arguments: { key_ids: [one.id], add: ['a,b'] } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/422/);
    expect(jsonOf(await agent.callTool({ name: 'get_key', arguments: { key_id: one.id } })).tags).toEqual(['mobile', 'release-2.3']);

    const imported = jsonOf(await agent.callTool({ name: 'import_file', arguments: { language: 'de', format: 'json', content: '{"tags.two": "Zwei", "tags.three": "Drei"}', status: 'approved', tag: 'mobile' } }));
    expect(imported).toMatchObject({ keys_created: 1, keys_tagged: 1 });
    expect(await byTag('mobile')).toEqual(['tags.one', 'tags.three', 'tags.two']);
    const exported = textOf(await agent.callTool({ name: 'export_file', arguments: { language: 'de', format: 'json', tag: 'mobile' } }));
    expect(JSON.parse(exported)).toEqual({ 'tags.three': 'Drei', 'tags.two': 'Zwei' });
  });

  it('reads the glossary terms of a key\'s source text, and adds terms', async () => {
    const added = jsonOf(await agent.callTool({ name: 'add_glossary_term', arguments: { term: 'Workspace', translations: { de: 'Arbeitsbereich' } } }));
    expect(added).toMatchObject({ term: 'Workspace', translatable: true, translations: { de: 'Arbeitsbereich' } });
    await agent.callTool({ name: 'add_glossary_term', arguments: { term: 'Acme Cloud', translatable: false } });
    const taken = await agent.callTool({ name: 'add_glossary_term', arguments: { term: 'workspace' } });
    expect(taken.isError).toBe(true);
    expect(textOf(taken)).toMatch(/409/);
    const key = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'glossary.invite', group_name: 'glossary' } }));
    await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'en', value: 'Invite people to your workspace on Acme Cloud', status: 'approved' } });
    const found = jsonOf(await agent.callTool({ name: 'get_glossary', arguments: { key_id: key.id } }));
    expect(found.terms.map((x: { term: string; translatable: boolean; translations: object }) => [x.term, x.translatable, x.translations])).toEqual([
      ['Acme Cloud', false, {}],
      ['Workspace', true, { de: 'Arbeitsbereich' }],
    ]);
    expect(jsonOf(await agent.callTool({ name: 'get_glossary', arguments: { q: 'arbeits' } })).terms.map((x: { term: string }) => x.term)).toEqual(['Workspace']);
    // A forbidden word: the agent adds it, and a value that uses it is answered with the warning.
    const banned = jsonOf(await agent.callTool({ name: 'add_glossary_term', arguments: { term: 'Space', forbidden: true, translations: { de: 'Raum' } } }));
    expect(banned).toMatchObject({ term: 'Space', forbidden: true });
    const written = jsonOf(await agent.callTool({ name: 'set_translation', arguments: { key_id: key.id, language: 'de', value: 'Lade Leute in deinen Raum auf Acme Cloud ein' } }));
    expect(written.warnings.map((w: { check: string }) => w.check)).toEqual(['glossary', 'forbidden_terms']);
  });

  it('shows an agent the screenshots of a key: their regions, then the images themselves', async () => {
    const { readFileSync } = await import('node:fs');
    const png = readFileSync(new URL('../fixtures/screenshots/sign-in.png', import.meta.url));
    const webp = readFileSync(new URL('../fixtures/screenshots/menu.webp', import.meta.url));
    const key = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: 'sign_in', group_name: 'auth' } }));
    const upload = async (body: Buffer, name: string) => (await t.call(p.apiKey, 'POST', `/v1/screenshots?name=${name}&key_id=${key.id}`, new Uint8Array(body))).json();
    const first = await upload(png, 'Sign-in');
    await upload(webp, 'Menu');
    await t.call(p.apiKey, 'PATCH', `/v1/screenshots/${first.id}`, { keys: { [key.id]: { region: { x: 10, y: 100, width: 80, height: 30 } } } });
    const result = await agent.callTool({ name: 'get_screenshots', arguments: { key_id: key.id } });
    const content = result.content as { type: string; text?: string; data?: string; mimeType?: string }[];
    expect(content.map((c) => c.type)).toEqual(['text', 'image', 'image']);
    const listed = JSON.parse(content[0]!.text!);
    expect(listed.map((s: { name: string }) => s.name)).toEqual(['Sign-in', 'Menu']);
    expect(listed[0].keys[0].region).toEqual({ x: 10, y: 100, width: 80, height: 30 });
    expect(content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: png.toString('base64') });
    expect(content[2]).toEqual({ type: 'image', mimeType: 'image/webp', data: webp.toString('base64') });
    const none = await agent.callTool({ name: 'get_screenshots', arguments: { key_id: '00000000-0000-4000-8000-000000000000' } });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/404/);
  });

  it('creates tasks by filter and by key ids, lists them, reads one with its keys still to do, and lists its keys', async () => {
    const { tools } = await agent.listTools();
    for (const name of ['list_tasks', 'get_task']) expect(tools.find((tool) => tool.name === name)!.annotations?.readOnlyHint, name).toBe(true);
    const keys: Record<string, string> = {};
    for (const name of ['work.one', 'work.two', 'work.three']) keys[name] = jsonOf(await agent.callTool({ name: 'create_key', arguments: { key: name, group_name: 'work' } })).id;
    await agent.callTool({ name: 'set_translation', arguments: { key_id: keys['work.one'], language: 'de', value: 'Eins', status: 'approved' } });

    // By filter: the group's keys still to translate in de (work.one is approved: left out, counted).
    const created = await agent.callTool({ name: 'create_task', arguments: { name: 'German work', language: 'de', filter: { group: 'work' }, due_date: '2027-03-01', description: 'For the agent' } });
    expect(created.isError, textOf(created)).toBeFalsy();
    const task = jsonOf(created);
    expect(task).toMatchObject({ name: 'German work', kind: 'translate', language: 'de', state: 'open', due_date: '2027-03-01', keys_total: 2, keys_done: 0, keys_left_out_done: 1 });
    // By key ids, a review task.
    const review = jsonOf(await agent.callTool({ name: 'create_task', arguments: { name: 'Review one', kind: 'review', language: 'de', key_ids: [keys['work.one']], include_done: true } }));
    expect(review).toMatchObject({ number: task.number + 1, kind: 'review', keys_total: 1, keys_done: 1 });
    // As the API holds them.
    expect((await (await t.call(p.apiKey, 'GET', `/v1/tasks/${task.number}`)).json()).name).toBe('German work');

    const listed = jsonOf(await agent.callTool({ name: 'list_tasks', arguments: { state: 'open', language: 'de' } }));
    expect(listed.data.map((x: { number: number }) => x.number)).toEqual([review.number, task.number]);
    expect(jsonOf(await agent.callTool({ name: 'list_tasks', arguments: { kind: 'review' } })).data.map((x: { name: string }) => x.name)).toEqual(['Review one']);

    const read = jsonOf(await agent.callTool({ name: 'get_task', arguments: { number: task.number } }));
    expect(read).toMatchObject({ number: task.number, keys_total: 2, keys_done: 0, keys_next_cursor: null });
    expect(read.keys.map((k: { key: string; status: string | null; done: boolean }) => [k.key, k.status, k.done])).toEqual([['work.three', null, false], ['work.two', null, false]]);
    // The agent does the work: the key is done, and get_task lists only what is left (or all).
    await agent.callTool({ name: 'set_translation', arguments: { key_id: keys['work.two'], language: 'de', value: 'Zwei', status: 'review' } });
    const after = jsonOf(await agent.callTool({ name: 'get_task', arguments: { number: task.number } }));
    expect(after).toMatchObject({ keys_done: 1 });
    expect(after.keys.map((k: { key: string }) => k.key)).toEqual(['work.three']);
    expect(jsonOf(await agent.callTool({ name: 'get_task', arguments: { number: task.number, keys: 'all' } })).keys.map((k: { key: string }) => k.key)).toEqual(['work.three', 'work.two']);
    // list_keys filters by task too.
    expect(jsonOf(await agent.callTool({ name: 'list_keys', arguments: { task: task.number } })).keys.map((k: { key: string }) => k.key)).toEqual(['work.three', 'work.two']);

    // Nothing left to do, an unknown task, a bad day: tool errors the agent can read; nothing made.
    const nothing = await agent.callTool({ name: 'create_task', arguments: { name: 'Again', language: 'de', key_ids: [keys['work.one']] } });
    expect(nothing.isError).toBe(true);
    expect(textOf(nothing)).toMatch(/422[\s\S]*already done in de/);
    const unknown = await agent.callTool({ name: 'get_task', arguments: { number: 99_999 } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/404/);
    const badDay = await agent.callTool({ name: 'create_task', arguments: { name: 'Late', language: 'de', filter: {}, due_date: 'soon' } });
    expect(badDay.isError).toBe(true);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/tasks')).json()).data).toHaveLength(2);
  });

  it("answers the API's refusals as tool errors the agent can read", async () => {
    const missing = await agent.callTool({ name: 'get_key', arguments: { key_id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/404/);
    const invalid = await agent.callTool({ name: 'set_translation', arguments: { key_id: 'nope', language: 'de', value: 'x' } });
    expect(invalid.isError).toBe(true);

    const stranger = await connect('key_live_' + 'x'.repeat(40));
    const refused = await stranger.callTool({ name: 'list_keys', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/401/);
  });
});

describe('tms mcp: answers too large for one stdio message', () => {
  it("cuts a language's translations to about 1 MiB with a note saying how to ask for less, and the agent's connection keeps working", async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    // 300 values of 10,000 characters (the spec's maximum): 3 MB of text, 6 MB once escaped into the
    // tool's JSON text and 12 MB once escaped again into the JSON-RPC line: over the SDK client's
    // 10 MiB, which once closed the connection ("Connection closed", then "Not connected").
    const text = '"'.repeat(10_000);
    for (let i = 0; i < 300; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          const k = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: `long.${i + j}`, group_name: i + j < 290 ? 'long' : 'short' })).json();
          const res = await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/de`, { value: text, status: 'approved' });
          expect(res.status).toBe(200);
        }),
      );
    }
    const agent = await connect(p.apiKey);
    const big = await agent.callTool({ name: 'get_translations', arguments: { language: 'de' } }, undefined, { timeout: 20_000 });
    // A normal answer: the first MiB of the values, then what was cut and how to ask for less.
    expect(big.isError).toBeFalsy();
    const cut = textOf(big);
    expect(cut.startsWith('{"')).toBe(true);
    expect(Buffer.byteLength(cut)).toBeLessThan(1024 * 1024 + 1024);
    expect(cut).toMatch(/\[tms mcp: answer cut: it is \d+ bytes of UTF-8 and only the first \d+ are above.*pass group.*\]$/s);
    // The agent's next call is answered: the session survived.
    expect(jsonOf(await agent.callTool({ name: 'cache_status', arguments: {} }, undefined, { timeout: 10_000 }))).toHaveProperty('ready');
    // Asking for less, as the note says: one group fits, whole.
    const group = jsonOf(await agent.callTool({ name: 'get_translations', arguments: { language: 'de', group: 'short' } }, undefined, { timeout: 10_000 }));
    expect(Object.keys(group.translations)).toHaveLength(10);
    // A file export is cut the same way, and exports one group when asked.
    const file = textOf(await agent.callTool({ name: 'export_file', arguments: { language: 'de', format: 'json' } }, undefined, { timeout: 20_000 }));
    expect(file).toMatch(/\[tms mcp: answer cut:.*group.*\]$/s);
    const one = textOf(await agent.callTool({ name: 'export_file', arguments: { language: 'de', format: 'json', group: 'short' } }, undefined, { timeout: 10_000 }));
    expect(Object.keys(JSON.parse(one))).toHaveLength(10);
  }, 120_000);
});

describe('tms mcp with a delivery key', () => {
  it('offers only the cached reads, and they read the published build', async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const created = await t.admin('POST', `/projects/${p.projectId}/api-keys`, { kind: 'delivery', name: 'agent' });
    expect(created.status).toBe(201);
    const reader = await connect((await created.json()).key);
    const { tools } = await reader.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_cached_translations', 'get_manifest']);

    // Nothing published yet: the API's 503, as a tool error.
    const early = await reader.callTool({ name: 'get_manifest', arguments: {} });
    expect(early.isError).toBe(true);

    const key = await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title' })).json();
    expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${key.id}/translations/de`, { value: 'Willkommen', status: 'approved' })).status).toBe(200);
    expect((await t.call(p.apiKey, 'POST', '/v1/cache/rebuild')).status).toBe(202);
    for (let i = 0; i < 100; i++) {
      if ((await (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json()).ready) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(jsonOf(await reader.callTool({ name: 'get_cached_translations', arguments: { language: 'de' } })).translations).toEqual({ 'home.title': 'Willkommen' });
    expect(jsonOf(await reader.callTool({ name: 'get_manifest', arguments: {} })).languages.map((l: { code: string }) => l.code)).toEqual(['de']);
  }, 60_000);
});
