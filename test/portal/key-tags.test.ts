// Tags in the portal's editor (docs/portal.md, "Tags"), through HTTP as a signed-in member: each
// key's tags shown beside its name (escaped), each a link to the keys with that tag; the filter's
// "Tag" select (the project's tags with their keys), kept in the page links, the bulk form's return
// address and the "has problems" mode; the key form's Tags field, written only over the tags the page
// showed (412 otherwise) and refused at the field when invalid; the bulk form's Add tag and Remove
// tag; all of it the key form's permission (keys.manage), and never another project's keys.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { bulkFields, decode, formFields } from './support/form-fields.ts';

const t = useTestApp();
let p: TestProject;
let dev: PortalClient;

let n = 0;
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}${n++}`;

async function newKey(key: string, tags: string[] = [], values: Record<string, string> = {}, project: TestProject = p): Promise<string> {
  const res = await t.call(project.apiKey, 'POST', '/v1/keys', { key, tags });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { id: string }).id;
  for (const [language, value] of Object.entries(values)) expect((await t.call(project.apiKey, 'PUT', `/v1/keys/${id}/translations/${language}`, { value })).status).toBe(200);
  return id;
}

const tagsOf = async (keyId: string) => (await t.runtime.deps.sql<{ tags: string[] }[]>`select tags from translation_keys where id = ${keyId}`)[0]!.tags;
const editor = (query: string) => `/portal/projects/${p.projectId}?${query}`;
/** The key names the editor's rows show. */
const rowKeys = (html: string) => [...html.matchAll(/<span class="mono keyname">([^<]*)<\/span>/g)].map((m) => decode(m[1]!));
/** The tag labels of one key's row. */
function labelsOf(html: string, key: string): string[] {
  const cell = new RegExp(`<span class="mono keyname">${key.replace(/\./g, '\\.')}</span>([^]*?)(?:<details|<form|</th>)`).exec(html)?.[1] ?? '';
  return [...cell.matchAll(/<a class="badge tag"[^>]*>([^]*?)<\/a>/g)].map((m) => m[1]!);
}

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  dev = await signedInMember(t, p.accountId, 'developer');
});

describe('showing and filtering by tag', () => {
  it("shows each key's tags as links to the keys with that tag, and the Tag filter lists the project's tags with their keys", async () => {
    const prefix = unique('show');
    await newKey(`${prefix}.a`, ['mobile', 'release-2.3']);
    await newKey(`${prefix}.b`, ['mobile']);
    await newKey(`${prefix}.c`);

    const all = await dev.get(editor(`q=${prefix}&lang=de`));
    expect(all.status).toBe(200);
    expect(rowKeys(all.text)).toEqual([`${prefix}.a`, `${prefix}.b`, `${prefix}.c`]);
    expect(labelsOf(all.text, `${prefix}.a`)).toEqual(['mobile', 'release-2.3']);
    expect(labelsOf(all.text, `${prefix}.c`)).toEqual([]);
    // A label opens the editor filtered by its tag (the shown languages kept).
    expect(all.text).toContain(`<a class="badge tag" href="/portal/projects/${p.projectId}?lang=de&amp;tag=release-2.3" aria-label="Keys tagged release-2.3">release-2.3</a>`);
    // The filter: "Any tag" first (chosen), then every tag with its live keys.
    const select = /<select name="tag">([^]*?)<\/select>/.exec(all.text)![1]!;
    expect([...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]])).toEqual(
      expect.arrayContaining([
        ['', 'Any tag'],
        ['mobile', 'mobile (2)'],
        ['release-2.3', 'release-2.3 (1)'],
      ]),
    );
    expect(select).toMatch(/^<option value="">Any tag<\/option>/);

    const tagged = await dev.get(editor(`q=${prefix}&lang=de&tag=mobile`));
    expect(rowKeys(tagged.text)).toEqual([`${prefix}.a`, `${prefix}.b`]);
    expect(tagged.text).toContain('<option value="mobile" selected="">mobile (2)</option>');
    // Kept in the forms' return address (here: the bulk form's) with the other filters.
    expect(formFields(tagged.text, `/portal/projects/${p.projectId}/bulk`).return_to).toBe(`/portal/projects/${p.projectId}?lang=de&q=${prefix}&tag=mobile`);
    const none = await dev.get(editor(`q=${prefix}&lang=de&tag=nobody-has-it`));
    expect(rowKeys(none.text)).toEqual([]);
    expect(none.text).toContain('No key matches these filters.');
    // A tag no live key has stays chosen in the select (else the page would seem unfiltered).
    expect(none.text).toContain('<option value="nobody-has-it" selected="">nobody-has-it (0)</option>');
  });

  it('offers the Tag select once the project has a tag', async () => {
    const fresh = await t.newProject('team');
    expect((await t.call(fresh.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const owner = await signedInMember(t, fresh.accountId, 'owner');
    const keyId = await newKey(unique('fresh'), [], {}, fresh);
    expect((await owner.get(`/portal/projects/${fresh.projectId}`)).text).not.toContain('<select name="tag">');
    expect((await t.call(fresh.apiKey, 'PATCH', `/v1/keys/${keyId}`, { tags: ['mobile'] })).status).toBe(200);
    expect((await owner.get(`/portal/projects/${fresh.projectId}`)).text).toContain('<option value="mobile">mobile (1)</option>');
  });

  it('shows a tag as text, never as markup', async () => {
    const prefix = unique('escape');
    await newKey(`${prefix}.a`, ['<b>x</b>', 'a"b&c']);
    const page = await dev.get(editor(`q=${prefix}&lang=de`));
    expect(page.text).not.toContain('<b>x</b>');
    expect(labelsOf(page.text, `${prefix}.a`)).toEqual(['&lt;b&gt;x&lt;/b&gt;', 'a&quot;b&amp;c']);
    expect(page.text).toContain(`href="/portal/projects/${p.projectId}?lang=de&amp;tag=%3Cb%3Ex%3C%2Fb%3E"`);
    expect(page.text).toContain('<option value="&lt;b&gt;x&lt;/b&gt;">&lt;b&gt;x&lt;/b&gt; (1)</option>');
    // The link's filter finds it.
    const filtered = await dev.get(editor(`lang=de&tag=${encodeURIComponent('<b>x</b>')}`));
    expect(rowKeys(filtered.text)).toEqual([`${prefix}.a`]);
  });

  it('keeps the tag in the page links', async () => {
    const tag = unique('paged');
    const prefix = unique('paging');
    // 51 tagged keys (one more than a page) and untagged ones between them, written directly.
    await t.runtime.deps.sql`
      insert into translation_keys (project_id, key, group_name, tags)
      select ${p.projectId}::uuid, ${prefix} || '.' || lpad(i::text, 3, '0'), 'paging', case when i % 2 = 0 then array[${tag}]::text[] else '{}' end
      from generate_series(0, 101) i`;
    const first = await dev.get(editor(`lang=de&tag=${tag}`));
    expect(rowKeys(first.text)).toHaveLength(50);
    expect(rowKeys(first.text).every((k) => Number(k.slice(-3)) % 2 === 0)).toBe(true);
    const next = decode(/<a href="([^"]+)" rel="next">Next page<\/a>/.exec(first.text)![1]!);
    expect(new URL(next, 'http://x').searchParams.get('tag')).toBe(tag);
    const second = await dev.get(next);
    expect(rowKeys(second.text)).toEqual([`${prefix}.100`]);
    expect(second.text).toContain(`href="/portal/projects/${p.projectId}?lang=de&amp;tag=${tag}">First page</a>`);
  });

  it('filters the "has problems" mode by tag too', async () => {
    const prefix = unique('problems');
    await newKey(`${prefix}.tagged`, ['checkout'], { en: 'Hello {name}!', de: 'Hallo!' });
    await newKey(`${prefix}.other`, [], { en: 'Bye {name}!', de: 'Tschüss!' });
    const both = await dev.get(editor(`q=${prefix}&lang=de&problems=de`));
    expect(rowKeys(both.text)).toEqual([`${prefix}.other`, `${prefix}.tagged`]);
    const tagged = await dev.get(editor(`q=${prefix}&lang=de&problems=de&tag=checkout`));
    expect(rowKeys(tagged.text)).toEqual([`${prefix}.tagged`]);
  });
});

describe("the key form's Tags field", () => {
  const keyForm = (keyId: string) => `/portal/projects/${p.projectId}/keys/${keyId}`;

  it('writes the tags typed (comma-separated), leaves them alone when the form shows them unchanged, and clears them', async () => {
    const name = unique('form');
    const keyId = await newKey(name, ['mobile']);
    const page = editor(`q=${name}&lang=de`);
    const fields = formFields((await dev.get(page)).text, keyForm(keyId));
    expect(fields).toMatchObject({ tags: 'mobile', tags_was: 'mobile' });

    expect((await dev.post(keyForm(keyId), { ...fields, tags: ' release-2.3 ,mobile,, mobile ', return_to: page })).status).toBe(303);
    expect(await tagsOf(keyId)).toEqual(['mobile', 'release-2.3']);

    // The same set in another order is no change: a colleague's change meanwhile is not reverted.
    const again = formFields((await dev.get(page)).text, keyForm(keyId));
    expect(again.tags).toBe('mobile, release-2.3');
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${keyId}`, { tags: ['ios'] })).status).toBe(200);
    expect((await dev.post(keyForm(keyId), { ...again, tags: 'release-2.3, mobile', group_name: 'moved' })).status).toBe(303);
    expect(await tagsOf(keyId)).toEqual(['ios']);

    const now = formFields((await dev.get(page)).text, keyForm(keyId));
    expect((await dev.post(keyForm(keyId), { ...now, tags: '' })).status).toBe(303);
    expect(await tagsOf(keyId)).toEqual([]);
  });

  it("refuses (412) a change to tags a colleague changed since the page was loaded, keeping the typed text", async () => {
    const name = unique('stale');
    const keyId = await newKey(name, ['mobile']);
    const page = editor(`q=${name}&lang=de`);
    const fields = formFields((await dev.get(page)).text, keyForm(keyId));
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${keyId}`, { tags: ['mobile', 'web'] })).status).toBe(200);

    const res = await dev.post(keyForm(keyId), { ...fields, tags: 'mobile, release-2.3', return_to: page });
    expect(res.status).toBe(412);
    expect(decode(res.text)).toContain("someone else changed this key's tags since the page was loaded");
    expect(await tagsOf(keyId)).toEqual(['mobile', 'web']);
    // The typed text kept, the form now naming the tags as stored: Save again replaces them knowingly.
    const shown = formFields(res.text, keyForm(keyId));
    expect(shown).toMatchObject({ tags: 'mobile, release-2.3', tags_was: 'mobile, web' });
    expect((await dev.post(keyForm(keyId), shown)).status).toBe(303);
    expect(await tagsOf(keyId)).toEqual(['mobile', 'release-2.3']);
  });

  it('shows an invalid tag or too many at the field, and writes nothing', async () => {
    const name = unique('invalid');
    const keyId = await newKey(name, ['mobile']);
    const page = editor(`q=${name}&lang=de`);
    const fields = formFields((await dev.get(page)).text, keyForm(keyId));
    for (const [tags, message] of [
      [`mobile, ${'x'.repeat(101)}`, 'a tag is at most 100 characters'],
      [Array.from({ length: 21 }, (_, i) => `t${i}`).join(', '), 'a key has at most 20 tags'],
      ['bell\u0007', 'a tag must not contain control characters'],
    ] as const) {
      const res = await dev.post(keyForm(keyId), { ...fields, group_name: 'moved', tags, return_to: page });
      expect(res.status, tags).toBe(422);
      // The key's own form (the New key form has a Tags field too).
      const keyFormHtml = new RegExp(`<form[^>]*action="${keyForm(keyId)}"[^>]*>([^]*?)</form>`).exec(res.text)![1]!;
      const input = /<input name="tags"[^>]*>/.exec(keyFormHtml)![0];
      expect(input).toContain('aria-invalid="true"');
      const described = /aria-describedby="([^"]+)"/.exec(input)![1]!;
      expect(decode(new RegExp(`<p id="${described}"[^>]*>([^<]*)</p>`).exec(res.text)![1]!)).toContain(message);
      expect(decode(input)).toContain(`value="${tags}"`);
      const [row] = await t.runtime.deps.sql<{ tags: string[]; group_name: string }[]>`select tags, group_name from translation_keys where id = ${keyId}`;
      expect(row).toEqual({ tags: ['mobile'], group_name: 'Default' });
    }
  });
});

describe('the bulk form: Add tag and Remove tag', () => {
  const bulk = () => `/portal/projects/${p.projectId}/bulk`;

  it('adds a tag to the selected keys and removes it, one event per key changed, and says how many', async () => {
    const prefix = unique('bulk');
    const a = await newKey(`${prefix}.a`, ['mobile']);
    const b = await newKey(`${prefix}.b`);
    const c = await newKey(`${prefix}.c`, ['release-2.3']);
    const page = editor(`q=${prefix}&lang=de`);
    const html = (await dev.get(page)).text;
    expect(html).toContain('<option value="tag-add">Add tag</option>');
    expect(html).toContain('<option value="tag-remove">Remove tag</option>');

    const added = await dev.post(bulk(), { ...bulkFields(html, [a, b, c], 'tag-add'), tag: ' release-2.3 ' });
    expect(added.status).toBe(303);
    const back = await dev.follow(added);
    expect(back.text).toContain('Tagged 2 keys.');
    expect(await Promise.all([a, b, c].map(tagsOf))).toEqual([['mobile', 'release-2.3'], ['release-2.3'], ['release-2.3']]);
    const events = await t.runtime.deps.sql<{ entity_id: string; before: unknown; after: unknown }[]>`
      select entity_id, before, after from domain_events where type = 'key.tagged' and entity_id = any(${[a, b, c]}::text[]) order by id`;
    expect(events.map((e) => e.entity_id).sort()).toEqual([a, b].sort());
    expect(events.find((e) => e.entity_id === a)).toMatchObject({ before: { tags: ['mobile'] }, after: { key: `${prefix}.a`, tags: ['mobile', 'release-2.3'] } });
    // The activity says it in words.
    expect(decode((await dev.get(`/portal/projects/${p.projectId}/activity`)).text)).toContain('tags: mobile → mobile, release-2.3');

    const again = await dev.post(bulk(), { ...bulkFields(html, [a, b], 'tag-add'), tag: 'release-2.3' });
    expect((await dev.follow(again)).text).toContain('Nothing changed: the selected keys already had that tag.');

    const removed = await dev.post(bulk(), { ...bulkFields(html, [a, b], 'tag-remove'), tag: 'release-2.3' });
    expect((await dev.follow(removed)).text).toContain('Removed the tag from 2 keys.');
    expect(await Promise.all([a, b, c].map(tagsOf))).toEqual([['mobile'], [], ['release-2.3']]);
  });

  it('refuses a missing or invalid tag at the tag field, selection and action kept, nothing written', async () => {
    const prefix = unique('bulkbad');
    const a = await newKey(`${prefix}.a`);
    const page = editor(`q=${prefix}&lang=de`);
    const html = (await dev.get(page)).text;
    for (const [tag, message] of [
      ['  ', 'Type the tag to add to the selected keys'],
      ['x'.repeat(101), 'a tag is at most 100 characters'],
      ['a,b', 'a tag must not contain a comma'],
    ] as const) {
      const res = await dev.post(bulk(), { ...bulkFields(html, [a], 'tag-add'), tag });
      expect(res.status, tag).toBe(422);
      const input = /<input name="tag"[^>]*>/.exec(res.text)![0];
      expect(input).toContain('aria-invalid="true"');
      expect(decode(res.text)).toContain(message);
      expect(res.text).toContain('<option value="tag-add" selected="">Add tag</option>');
      expect(res.text).toMatch(new RegExp(`value="${a}"[^>]*checked`));
    }
    expect(await tagsOf(a)).toEqual([]);
  });

  it('refuses a key over its limit of tags as a whole', async () => {
    const prefix = unique('bulkfull');
    const full = await newKey(`${prefix}.full`, Array.from({ length: 20 }, (_, i) => `t${i}`));
    const other = await newKey(`${prefix}.other`);
    const html = (await dev.get(editor(`q=${prefix}&lang=de`))).text;
    const res = await dev.post(bulk(), { ...bulkFields(html, [full, other], 'tag-add'), tag: 'one-more' });
    expect(res.status).toBe(422);
    expect(decode(res.text)).toContain(`a key has at most 20 tags: ${prefix}.full would have more`);
    expect(await tagsOf(other)).toEqual([]);
  });

  it("never touches another project's keys", async () => {
    const elsewhere = await t.newProject('team');
    const theirs = await newKey(unique('theirs'), ['mobile'], {}, elsewhere);
    const mine = await newKey(unique('mine'));
    const res = await dev.post(bulk(), { action: 'tag-remove', key: [mine, theirs], tag: 'mobile' });
    expect(res.status).toBe(404);
    const add = await dev.post(bulk(), { action: 'tag-add', key: [theirs], tag: 'mine-now' });
    expect(add.status).toBe(404);
    expect(await tagsOf(theirs)).toEqual(['mobile']);
    expect(await tagsOf(mine)).toEqual([]);
    // Nor through their own addresses: a key form of another project's key is not found.
    expect((await dev.post(`/portal/projects/${p.projectId}/keys/${theirs}`, { group_name: 'Default', tags: 'x' })).status).toBe(404);
    expect((await dev.post(`/portal/projects/${elsewhere.projectId}/bulk`, { action: 'tag-add', key: [theirs], tag: 'x' })).status).toBe(404);
    expect(await tagsOf(theirs)).toEqual(['mobile']);
  });
});

describe('permissions: tags are the key form\'s (keys.manage)', () => {
  it.each(['translator', 'reviewer'])('a %s sees the tags and filters by them, but may not change them', async (role) => {
    const member = await signedInMember(t, p.accountId, role);
    const name = unique(`perm.${role}`);
    const keyId = await newKey(name, ['mobile']);
    const page = await member.get(editor(`q=${name}&lang=de&tag=mobile`));
    expect(rowKeys(page.text)).toEqual([name]);
    expect(labelsOf(page.text, name)).toEqual(['mobile']);
    expect(page.text).not.toContain('value="tag-add"');
    expect(page.text).not.toContain('name="tags"');

    const bulk = await member.post(`/portal/projects/${p.projectId}/bulk`, { action: 'tag-add', key: [keyId], tag: 'release-2.3' });
    expect(bulk.status).toBe(403);
    const untag = await member.post(`/portal/projects/${p.projectId}/bulk`, { action: 'tag-remove', key: [keyId], tag: 'mobile' });
    expect(untag.status).toBe(403);
    const form = await member.post(`/portal/projects/${p.projectId}/keys/${keyId}`, { group_name: 'Default', tags: 'release-2.3', tags_was: 'mobile' });
    expect(form.status).toBe(403);
    expect(await tagsOf(keyId)).toEqual(['mobile']);
  });
});
