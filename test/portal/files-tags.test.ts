// Tags on the portal's Files page and in the New key form (docs/portal.md, "Tags" and "Import and
// export"), through HTTP as a signed-in developer: the import form's "Tag every key of the file"
// (kept after a refusal, carried by the preview's Apply, its count and list in the preview and the
// applied counts, a tagging changed since the preview refused with 412 and the new preview, a bad
// tag said at its field, never a 5xx); the export form's Tag select (only with tags, only this
// project's) and the file it downloads; the New key form's Tags field (written, refused at the
// field with what was typed kept).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { decode, formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;

let n = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${n++}`;

const files = () => `/portal/projects/${p.projectId}/files`;
const importPath = (project: TestProject = p) => `/portal/projects/${project.projectId}/import`;
const cookieOf = (client: PortalClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function newKey(key: string, tags: string[] = [], project: TestProject = p): Promise<string> {
  const res = await t.call(project.apiKey, 'POST', '/v1/keys', { key, tags });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}
const tagsOf = async (key: string, project: TestProject = p) =>
  (await t.runtime.deps.sql<{ tags: string[] }[]>`select tags from translation_keys where project_id = ${project.projectId} and key = ${key} and deleted_at is null`)[0]?.tags;

/** A multipart POST as the browser sends the import form (fields, then the file when given). */
async function sendImport(client: PortalClient, fields: Record<string, string>, file?: unknown, project: TestProject = p) {
  const form = new FormData();
  form.set('_csrf', client.csrf);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file !== undefined) form.set('file', new File([JSON.stringify(file)], 'de.json', { type: 'application/json' }));
  const res = await t.app.request(`http://localhost${importPath(project)}`, { method: 'POST', headers: { Cookie: cookieOf(client), Origin: 'http://localhost' }, body: form });
  return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
}

const CHOICE = { language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default' };
const preview = (file: unknown, fields: Record<string, string> = {}) => sendImport(dev, { ...CHOICE, ...fields }, file);

/** The preview's Apply form, sent as the browser sends it: its hidden fields, multipart. */
async function apply(html: string) {
  const inner = /<form method="post" action="[^"]*\/import" enctype="multipart\/form-data" class="card stack"><h2>Preview([\s\S]*?)<\/form>/.exec(html)![1]!;
  const fields = Object.fromEntries([...inner.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, decode(value!)]));
  return sendImport(dev, fields);
}

/** An element's text, as read. */
const textOf = (html: string) => decode(html.replace(/<\/(li|h\d|p|ul)>/g, ' ').replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
/** The preview's lists of changes, by heading. */
function changeLists(html: string): Record<string, string[]> {
  const block = /<div class="changes">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  return Object.fromEntries([...block.matchAll(/<h3>([^<]*)<\/h3><ul>([\s\S]*?)<\/ul>/g)].map(([, title, items]) => [title!, [...items!.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]!))]));
}
/** The import form (not the preview's Apply form). */
const importForm = (html: string) => /<h2>Import a file<\/h2><form[^>]*>([\s\S]*?)<\/form>/.exec(html)![1]!;
const exportForm = (html: string) => /<form method="get" action="[^"]*\/export"[^>]*>([\s\S]*?)<\/form>/.exec(html)![1]!;
const options = (select: string) => [...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [decode(m[1]!), decode(m[2]!)]);

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  dev = await signedInMember(t, p.accountId, 'developer');
  await dev.get(files());
});

describe('importing with a tag', () => {
  it('previews the tagging (count and list), then Apply tags the created keys and the existing ones, and the counts name the tag', async () => {
    const prefix = unique('imp');
    await newKey(`${prefix}.one`, ['web']);
    await newKey(`${prefix}.two`, ['mobile']);
    const file = { [`${prefix}.one`]: 'Eins', [`${prefix}.two`]: 'Zwei', [`${prefix}.new`]: 'Neu' };

    const shown = await preview(file, { tag: ' mobile ' });
    expect(shown.status, shown.text.slice(0, 300)).toBe(200);
    expect(textOf(shown.text)).toContain('1 existing key gets the tag mobile');
    expect(changeLists(shown.text)).toMatchObject({ 'New keys': [`${prefix}.new`], 'Tagged keys': [`${prefix}.one`] });
    // The preview writes nothing; the tag travels with the Apply form, and stays in the import form.
    expect(await tagsOf(`${prefix}.one`)).toEqual(['web']);
    expect(shown.text).toContain('<input type="hidden" name="tag" value=" mobile "/>');
    expect(importForm(shown.text)).toMatch(/<input name="tag" value=" mobile "/);

    const applied = await apply(shown.text);
    expect(applied.status, applied.text.slice(0, 300)).toBe(303);
    const page = await dev.follow(applied);
    expect(textOf(page.text)).toContain('Imported into de:');
    expect(textOf(page.text)).toContain('1 new key');
    expect(textOf(page.text)).toContain('1 existing key got the tag mobile');
    expect({ one: await tagsOf(`${prefix}.one`), two: await tagsOf(`${prefix}.two`), created: await tagsOf(`${prefix}.new`) }).toEqual({ one: ['mobile', 'web'], two: ['mobile'], created: ['mobile'] });
  });

  it('without a tag (blank field) tags nothing and says nothing of tags', async () => {
    const prefix = unique('blank');
    await newKey(`${prefix}.one`, ['web']);
    const shown = await preview({ [`${prefix}.one`]: 'Eins', [`${prefix}.new`]: 'Neu' }, { tag: '   ' });
    expect(shown.status).toBe(200);
    expect(textOf(shown.text)).not.toContain('the tag');
    expect(changeLists(shown.text)['Tagged keys']).toBeUndefined();
    expect((await apply(shown.text)).status).toBe(303);
    expect({ one: await tagsOf(`${prefix}.one`), created: await tagsOf(`${prefix}.new`) }).toEqual({ one: ['web'], created: [] });
  });

  it('a tagging changed since the preview imports nothing: 412 and the new preview, which Apply then imports', async () => {
    const prefix = unique('race');
    const one = await newKey(`${prefix}.one`);
    await newKey(`${prefix}.two`);
    const file = { [`${prefix}.one`]: 'Eins', [`${prefix}.two`]: 'Zwei' };
    // The values first, so the only change left for the tagged preview is the tagging.
    expect((await apply((await preview(file)).text)).status).toBe(303);

    const shown = await preview(file, { tag: 'release' });
    expect(textOf(shown.text)).toContain('2 existing keys get the tag release');
    // A colleague tags one of them meanwhile.
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${one}`, { tags: ['release'] })).status).toBe(200);

    const refused = await apply(shown.text);
    expect(refused.status).toBe(412);
    expect(decode(refused.text)).toContain('Nothing was imported: the project changed since the preview was made');
    expect(textOf(refused.text)).toContain('1 existing key gets the tag release');
    expect(changeLists(refused.text)['Tagged keys']).toEqual([`${prefix}.two`]);
    expect(await tagsOf(`${prefix}.two`)).toEqual([]);

    expect((await apply(refused.text)).status).toBe(303);
    expect(await tagsOf(`${prefix}.two`)).toEqual(['release']);
  });

  it('refuses a tag no tag can be at the tag field, the choices kept and nothing written; odd input is never a 5xx', async () => {
    const prefix = unique('bad');
    await newKey(`${prefix}.one`);
    const file = { [`${prefix}.one`]: 'Eins', [`${prefix}.new`]: 'Neu' };
    const choice = { language: 'de', format: 'json', status: 'review', conflict: 'keep', group: 'Checkout' };
    for (const [tag, message] of [
      ['a,b', 'a tag must not contain a comma'],
      ['x'.repeat(101), 'a tag is at most 100 characters'],
      ['bell\u0007', 'a tag must not contain control characters'],
      ['nul\u0000', 'a tag must not contain control characters'],
    ] as const) {
      const res = await sendImport(dev, { ...choice, tag }, file);
      expect(res.status, JSON.stringify(tag)).toBe(422);
      const form = importForm(res.text);
      const input = /<input name="tag"[^>]*>/.exec(form)![0];
      expect(input).toContain('aria-invalid="true"');
      expect(input).toContain('aria-describedby="import-tag-error"');
      expect(decode(/<p id="import-tag-error" class="field-error" role="alert">([^<]*)<\/p>/.exec(form)![1]!)).toContain(message);
      // Not at the file field; the choices and the typed tag kept.
      expect(form).not.toContain('import-file-error');
      expect(form).toMatch(/<input type="file" name="file" required=""\/>/);
      expect(decode(input)).toContain(`value="${tag}"`);
      expect(form).toMatch(/<select name="status"[^>]*>[\s\S]*?<option value="review" selected="">/);
      expect(form).toMatch(/<select name="conflict"[^>]*>[\s\S]*?<option value="keep" selected="">/);
      expect(form).toMatch(/<input name="group" value="Checkout"/);
    }
    expect(await tagsOf(`${prefix}.new`)).toBeUndefined();

    // A key the tag would take past 20 tags: refused whole (the import's ['query', 'tag']), at the tag field.
    await newKey(`${prefix}.full`, Array.from({ length: 20 }, (_, i) => `t${i}`));
    const full = await sendImport(dev, { ...choice, tag: 'one-more' }, { ...file, [`${prefix}.full`]: 'Voll' });
    expect(full.status).toBe(422);
    expect(decode(/<p id="import-tag-error" class="field-error" role="alert">([^<]*)<\/p>/.exec(full.text)![1]!)).toContain(`a key has at most 20 tags: ${prefix}.full would have more`);
    expect(await tagsOf(`${prefix}.one`)).toEqual([]);

    // Bytes that are no text (a lone surrogate as UTF-8 would encode it), a lone surrogate, U+2028: a 4xx or taken, never a 5xx.
    const boundary = 'files-tags-boundary';
    const part = (name: string, value: Buffer) => [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), value, Buffer.from('\r\n')];
    const raw = Buffer.concat([
      ...part('_csrf', Buffer.from(dev.csrf)),
      ...Object.entries(CHOICE).flatMap(([k, v]) => part(k, Buffer.from(v))),
      ...part('tag', Buffer.from([0x61, 0xed, 0xa0, 0x80])),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="de.json"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(file)}\r\n--${boundary}--\r\n`),
    ]);
    const surrogateBytes = await t.app.request(`http://localhost${importPath()}`, {
      method: 'POST',
      headers: { Cookie: cookieOf(dev), Origin: 'http://localhost', 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: raw,
    });
    expect(surrogateBytes.status).toBe(422);
    for (const tag of ['a\ud800', 'line\u2028sep', ',', '\u0085']) {
      const res = await sendImport(dev, { ...CHOICE, tag }, file);
      expect(res.status, JSON.stringify(tag)).toBeLessThan(500);
    }
    // Apply sent with an odd tag (an edited form): refused at the field too, nothing written.
    const applied = await sendImport(dev, { ...CHOICE, tag: 'a,b', apply: 'yes', file_base64: Buffer.from(JSON.stringify(file)).toString('base64'), submission: crypto.randomUUID() });
    expect(applied.status).toBe(422);
    expect(importForm(applied.text)).toContain('aria-describedby="import-tag-error"');
    expect(await tagsOf(`${prefix}.new`)).toBeUndefined();
  });
});

describe('exporting by tag', () => {
  it("offers the project's tags (Every key first) and downloads only the keys with the chosen one", async () => {
    const prefix = unique('exp');
    const tag = unique('ship');
    for (const [key, tags] of [[`${prefix}.a`, [tag]], [`${prefix}.b`, [tag, 'web']], [`${prefix}.c`, []]] as const) {
      const id = await newKey(key, [...tags]);
      expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: `de ${key}`, status: 'approved' })).status).toBe(200);
    }
    // Another project's tags are never listed, nor its keys exported.
    const other = await t.newProject('team');
    expect((await t.call(other.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const theirs = await newKey(unique('theirs'), ['secret-theirs', tag], other);
    expect((await t.call(other.apiKey, 'PUT', `/v1/keys/${theirs}/translations/de`, { value: 'fremd', status: 'approved' })).status).toBe(200);

    const page = await dev.get(files());
    expect(page.status).toBe(200);
    const select = /<select name="tag">([\s\S]*?)<\/select>/.exec(exportForm(page.text))![1]!;
    const listed = options(select);
    expect(listed[0]).toEqual(['', 'Every key']);
    expect(select).toMatch(/^<option value="" selected="">Every key<\/option>/);
    expect(listed).toContainEqual([tag, `${tag} (2)`]);
    expect(listed.map(([v]) => v)).not.toContain('secret-theirs');

    const download = async (query: string) => {
      const res = await dev.get(`/portal/projects/${p.projectId}/export?language=de&format=json&status=approved&${query}`);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      return Object.keys(JSON.parse(res.text) as object).filter((k) => k.startsWith(prefix));
    };
    expect(await download(`tag=${tag}`)).toEqual([`${prefix}.a`, `${prefix}.b`]);
    expect(await download(`tag=${encodeURIComponent(` ${tag} `)}`)).toEqual([`${prefix}.a`, `${prefix}.b`]);
    // "Every key" (blank) and no tag at all: every key.
    expect(await download('tag=')).toEqual([`${prefix}.a`, `${prefix}.b`, `${prefix}.c`]);
    expect(await download('tag=%20')).toEqual([`${prefix}.a`, `${prefix}.b`, `${prefix}.c`]);
    expect(await download('')).toEqual([`${prefix}.a`, `${prefix}.b`, `${prefix}.c`]);
    // Another project's tag: nothing of theirs.
    const res = await dev.get(`/portal/projects/${p.projectId}/export?language=de&format=json&status=approved&tag=secret-theirs`);
    expect(JSON.parse(res.text)).toEqual({});
    // Odd tags: an empty file or a 4xx, never a 5xx.
    for (const odd of ['a,b', '%00', '%ED%A0%80', 'x'.repeat(2_000), '%E2%80%A8']) {
      expect((await dev.get(`/portal/projects/${p.projectId}/export?language=de&format=json&tag=${odd}`)).status, odd.slice(0, 20)).toBeLessThan(500);
    }
  });

  it('has no Tag select in a project without tags', async () => {
    const fresh = await t.newProject('team');
    expect((await t.call(fresh.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const owner = await signedInMember(t, fresh.accountId, 'owner');
    const keyId = await newKey(unique('fresh'), [], fresh);
    const path = `/portal/projects/${fresh.projectId}/files`;
    const page = await owner.get(path);
    expect(page.status).toBe(200);
    expect(exportForm(page.text)).not.toContain('name="tag"');
    // The import form's tag field is there all the same (a first import may tag).
    expect(importForm(page.text)).toContain('<input name="tag" value=""');
    expect((await t.call(fresh.apiKey, 'PATCH', `/v1/keys/${keyId}`, { tags: ['mobile'] })).status).toBe(200);
    expect(exportForm((await owner.get(path)).text)).toContain('<option value="mobile">mobile (1)</option>');
  });
});

describe("the New key form's Tags field", () => {
  const keys = () => `/portal/projects/${p.projectId}/keys`;
  const editor = (query: string) => `/portal/projects/${p.projectId}?${query}`;
  const newKeyForm = (html: string) => new RegExp(`<form[^>]*action="${keys()}"[^>]*>([^]*?)</form>`).exec(html)![1]!;

  it('creates the key with the tags typed (comma-separated), and without any when blank', async () => {
    const name = unique('nk.tagged');
    const page = editor('lang=de');
    const fields = formFields((await dev.get(page)).text, keys());
    expect(newKeyForm((await dev.get(page)).text)).toContain('<input name="tags"');
    expect((await dev.post(keys(), { ...fields, key: name, group_name: 'nk', tags: ' release-2.3 ,mobile,, mobile ', return_to: page })).status).toBe(303);
    expect(await tagsOf(name)).toEqual(['mobile', 'release-2.3']);

    const plain = unique('nk.plain');
    expect((await dev.post(keys(), { ...fields, key: plain, tags: ' , ', return_to: page })).status).toBe(303);
    expect(await tagsOf(plain)).toEqual([]);
    // A form without the field (an older page) creates the key without tags, as before.
    const older = unique('nk.older');
    expect((await dev.post(keys(), { key: older, return_to: page })).status).toBe(303);
    expect(await tagsOf(older)).toEqual([]);
  });

  it('refuses a bad tag or too many at the Tags field, keeping what was typed, and creates nothing', async () => {
    const page = editor('lang=de');
    for (const [tags, message] of [
      [`mobile, ${'x'.repeat(101)}`, 'a tag is at most 100 characters'],
      [Array.from({ length: 21 }, (_, i) => `t${i}`).join(', '), 'a key has at most 20 tags'],
      ['bell\u0007', 'a tag must not contain control characters'],
      ['a,,b\u0000', 'a tag must not contain control characters'],
    ] as const) {
      const name = unique('nk.bad');
      const res = await dev.post(keys(), { key: name, group_name: 'nk', description: 'Said on the home page', tags, return_to: page });
      expect(res.status, tags.slice(0, 20)).toBe(422);
      expect(await tagsOf(name)).toBeUndefined();
      const form = newKeyForm(res.text);
      const input = /<input name="tags"[^>]*>/.exec(form)![0];
      expect(input).toContain('aria-invalid="true"');
      expect(input).toContain('aria-describedby="err-new-key-tags"');
      expect(decode(/<p id="err-new-key-tags"[^>]*>([^<]*)<\/p>/.exec(form)![1]!)).toContain(message);
      expect(decode(input)).toContain(`value="${tags}"`);
      // The other fields kept too, the form left open.
      expect(decode(form)).toContain(`value="${name}"`);
      expect(decode(form)).toContain('value="Said on the home page"');
      expect(res.text).toMatch(/<details class="card" open="">\s*<summary>New key<\/summary>/);
    }
    // Bytes that are no UTF-8 text (a lone surrogate as CESU-8 would write it), U+2028: a 4xx or taken, never a 5xx.
    for (const encoded of ['a%ED%A0%80', '%E2%80%A8', '%C2%85']) {
      const name = unique('nk.odd');
      const res = await dev.request('POST', keys(), { body: `_csrf=${dev.csrf}&key=${name}&tags=${encoded}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      expect(res.status, encoded).toBeLessThan(500);
      if (res.status !== 303) expect(await tagsOf(name)).toBeUndefined();
    }
  });

  it('is not offered to translators and reviewers (keys.manage), and refused to them', async () => {
    const member = await signedInMember(t, p.accountId, 'translator');
    const html = (await member.get(editor('lang=de'))).text;
    expect(html).not.toContain('name="tags"');
    const name = unique('nk.translator');
    expect((await member.post(keys(), { key: name, tags: 'mobile' })).status).toBe(403);
    expect(await tagsOf(name)).toBeUndefined();
  });
});
