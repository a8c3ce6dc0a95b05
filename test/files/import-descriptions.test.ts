// An import that changes key descriptions (ARB `description`, XLIFF notes, PO comments, Android
// comments) says so and keeps what it replaced, as it does for values: `descriptions_updated` in its
// answer and its translation.imported event, one key.updated per key with the old and the new
// description (what a PATCH of the key records), the count in the Activity line, and in the portal
// the preview lists the changes and its Apply imports only what it showed. A dry run counts them and
// writes nothing; conflict=keep leaves descriptions alone; conflict=fail refuses changed values only,
// not descriptions. It once overwrote descriptions and recorded nothing: the old one was lost.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { heldAtUnitCharge } from '../support/held-at-unit-charge.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';
import type { PortalClient } from '../portal/support/portal-client.ts';
import { body, project, type Project } from '../translations/helpers.ts';

const t = useTestApp();

/** An ARB file for de: each key's text and, when given, its description. */
const arb = (entries: Record<string, [string, string?]>) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(entries).flatMap(([key, [value, description]]) => [[key, value], ...(description === undefined ? [] : [[`@${key}`, { description }]])]),
    ),
  );

const importArb = async (p: Project, file: string, query = ''): Promise<Response> =>
  t.app.request(`/v1/import/de?format=arb&status=draft${query}`, {
    method: 'POST',
    headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' },
    body: file,
  });

type Event = { type: string; entity_id: string; actor_type: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };

/** The project's events after `since` (an event id), oldest first. */
const eventsSince = (p: Project, since: string) =>
  t.runtime.deps.sql<Event[]>`
    select type, entity_id, actor_type, before, after from domain_events
    where project_id = ${p.projectId} and id > ${since}::bigint order by id`;
const lastEventId = async () => (await t.runtime.deps.sql<{ max: string }[]>`select coalesce(max(id), 0)::text as max from domain_events`)[0]!.max;

const keyOf = async (p: Project, key: string) =>
  (await t.runtime.deps.sql<{ id: string; description: string | null }[]>`
    select id, description from translation_keys where project_id = ${p.projectId} and key = ${key} and deleted_at is null`)[0]!;

/** A project with de and the key desc.title ("Hallo", draft) described "Greeting". */
async function described(): Promise<Project> {
  const p = await project(t, ['en', 'de']);
  const first = await importArb(p, arb({ 'desc.title': ['Hallo', 'Greeting'] }));
  expect(first.status, await first.clone().text()).toBe(200);
  expect((await keyOf(p, 'desc.title')).description).toBe('Greeting');
  return p;
}

describe('an import that changes only key descriptions', () => {
  it('counts them in its answer and event, and records a key.updated with the old and the new description, as a PATCH does', async () => {
    const p = await described();
    const key = await keyOf(p, 'desc.title');
    const since = await lastEventId();

    const res = await importArb(p, arb({ 'desc.title': ['Hallo', 'Greeting on the home screen'] }));
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ keys_created: 0, values_created: 0, values_updated: 0, values_unchanged: 1, descriptions_updated: 1, translation_units: 0 });
    expect((await keyOf(p, 'desc.title')).description).toBe('Greeting on the home screen');

    const recorded = await eventsSince(p, since);
    expect(recorded.map((e) => e.type)).toEqual(['key.updated', 'translation.imported']);
    const [updated, imported] = recorded;
    expect(updated).toMatchObject({
      entity_id: key.id,
      actor_type: 'api_key',
      before: { group_name: 'desc', description: 'Greeting' },
      after: { group_name: 'desc', description: 'Greeting on the home screen' },
    });
    expect(imported!.after).toMatchObject({ values_updated: 0, values_unchanged: 1, descriptions_updated: 1 });

    // The same fields a PATCH of the key records.
    const beforePatch = await lastEventId();
    const patched = await t.call(p.apiKey, 'PATCH', `/v1/keys/${key.id}`, { description: 'Patched' });
    expect(patched.status).toBe(200);
    const [patch] = await eventsSince(p, beforePatch);
    expect(patch).toMatchObject({ type: 'key.updated', before: { description: 'Greeting on the home screen' }, after: { description: 'Patched' } });
    expect(Object.keys(patch!.before!).sort()).toEqual(Object.keys(updated!.before!).sort());
    expect(Object.keys(patch!.after!).sort()).toEqual(Object.keys(updated!.after!).sort());
  });

  it('with a value changed too: one key.updated per changed description beside the translation.written, and none for a description the file does not change', async () => {
    const p = await project(t, ['de']);
    expect((await importArb(p, arb({ a: ['A', 'First'], b: ['B', 'Second'], c: ['C'] }))).status).toBe(200);
    const since = await lastEventId();
    const res = await importArb(p, arb({ a: ['A2', 'First, changed'], b: ['B', 'Second'], c: ['C', 'Third, new'], d: ['D', 'Fourth'] }));
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ keys_created: 1, values_created: 1, values_updated: 1, values_unchanged: 2, descriptions_updated: 2 });
    const recorded = await eventsSince(p, since);
    const a = await keyOf(p, 'a');
    const c = await keyOf(p, 'c');
    expect(recorded.filter((e) => e.type === 'key.updated').map((e) => [e.entity_id, e.before?.description, e.after?.description])).toEqual(
      [
        [a.id, 'First', 'First, changed'],
        [c.id, null, 'Third, new'],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    expect(recorded.filter((e) => e.type === 'translation.written')).toHaveLength(1);
    expect(recorded.at(-1)).toMatchObject({ type: 'translation.imported', after: { descriptions_updated: 2 } });
    // A created key's description is the key's creation's (keys_created), not an update.
    expect((await keyOf(p, 'd')).description).toBe('Fourth');
  });

  it('the same file again changes nothing and records nothing; a file without descriptions leaves them', async () => {
    const p = await described();
    const since = await lastEventId();
    const again = await importArb(p, arb({ 'desc.title': ['Hallo', 'Greeting'] }));
    expect(await body(again)).toMatchObject({ values_unchanged: 1, descriptions_updated: 0 });
    const bare = await importArb(p, arb({ 'desc.title': ['Hallo'] }));
    expect(await body(bare)).toMatchObject({ values_unchanged: 1, descriptions_updated: 0 });
    expect(await eventsSince(p, since)).toEqual([]);
    expect((await keyOf(p, 'desc.title')).description).toBe('Greeting');
  });

  it('a dry run counts them and writes and records nothing', async () => {
    const p = await described();
    const since = await lastEventId();
    const res = await importArb(p, arb({ 'desc.title': ['Hallo', 'Greeting on the home screen'] }), '&dry_run=true');
    expect(await body(res)).toMatchObject({ dry_run: true, values_updated: 0, descriptions_updated: 1 });
    expect((await keyOf(p, 'desc.title')).description).toBe('Greeting');
    expect(await eventsSince(p, since)).toEqual([]);
  });

  it('conflict=keep leaves descriptions as they are (0 counted)', async () => {
    const p = await described();
    const since = await lastEventId();
    const res = await importArb(p, arb({ 'desc.title': ['Hallo', 'Greeting on the home screen'] }), '&conflict=keep');
    expect(await body(res)).toMatchObject({ values_unchanged: 1, descriptions_updated: 0 });
    expect((await keyOf(p, 'desc.title')).description).toBe('Greeting');
    expect(await eventsSince(p, since)).toEqual([]);
  });

  it('conflict=fail refuses changed values, not changed descriptions; a refused file writes no description', async () => {
    const p = await described();
    const refused = await importArb(p, arb({ 'desc.title': ['Hallo Welt', 'Greeting on the home screen'] }), '&conflict=fail');
    expect(refused.status).toBe(409);
    expect((await keyOf(p, 'desc.title')).description).toBe('Greeting');

    const since = await lastEventId();
    const res = await importArb(p, arb({ 'desc.title': ['Hallo', 'Greeting on the home screen'] }), '&conflict=fail');
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ values_updated: 0, descriptions_updated: 1 });
    expect((await eventsSince(p, since)).map((e) => [e.type, e.before?.description ?? null])).toEqual([
      ['key.updated', 'Greeting'],
      ['translation.imported', null],
    ]);
  });
});

describe.runIf(usingRealPostgres())('a description changed while an import ran', () => {
  it('the import runs again on it: the key.updated keeps what it replaced, and a description already as the file says is no change', async () => {
    const sql = t.runtime.deps.sql;
    const p = await described();
    const key = await keyOf(p, 'desc.title');
    // A value changes too, so that the import charges a unit (and is held at its charge).
    const colleague = await heldAtUnitCharge(sql, p.accountId, () => importArb(p, arb({ 'desc.title': ['Hallo 2', 'From the file'] })), async () => {
      expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${key.id}`, { description: "A colleague's" })).status).toBe(200);
    });
    expect(await body(colleague)).toMatchObject({ values_updated: 1, descriptions_updated: 1 });
    const [last] = await sql<{ before: { description: string } }[]>`
      select before from domain_events where project_id = ${p.projectId} and type = 'key.updated' order by id desc limit 1`;
    expect(last!.before.description).toBe("A colleague's");

    const since = await lastEventId();
    const same = await heldAtUnitCharge(sql, p.accountId, () => importArb(p, arb({ 'desc.title': ['Hallo 3', 'As the file says'] })), async () => {
      expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${key.id}`, { description: 'As the file says' })).status).toBe(200);
    });
    expect(await body(same)).toMatchObject({ values_updated: 1, descriptions_updated: 0 });
    expect((await eventsSince(p, since)).map((e) => e.type)).toEqual(['key.updated', 'translation.written', 'translation.imported']);
  });
});

describe('in the portal', () => {
  let p: Project;
  let owner: PortalClient;
  beforeAll(async () => {
    p = await described();
    owner = await signedInMember(t, p.accountId, 'owner');
  });

  const decode = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const textOf = (html: string) => decode(html.replace(/<\/(li|h\d|p|ul)>/g, ' ').replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
  const listsIn = (html: string) => {
    const block = /<div class="changes">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
    const lists: Record<string, string[]> = {};
    for (const [, title, items] of block.matchAll(/<h3>([^<]*)<\/h3><ul>([\s\S]*?)<\/ul>/g)) {
      lists[title!] = [...items!.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]!));
    }
    return lists;
  };

  /** The import form, multipart with the ARB file, as the page sends it. */
  async function preview(file: string) {
    const form = new FormData();
    form.set('_csrf', owner.csrf);
    for (const [k, v] of Object.entries({ language: 'de', format: 'arb', status: 'draft', conflict: 'overwrite', group: 'Default' })) form.set(k, v);
    form.set('file', new File([file], 'app_de.arb', { type: 'application/json' }));
    return send(form);
  }

  /** The preview's Apply form as the browser sends it: its hidden fields. */
  async function apply(html: string) {
    const inner = /<form method="post" action="[^"]*\/import"[^>]*>([\s\S]*?)<\/form>/.exec(html)![1]!;
    const form = new FormData();
    for (const [, name, value] of inner.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) form.append(name!, decode(value!));
    return send(form);
  }

  async function send(form: FormData) {
    const res = await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, {
      method: 'POST',
      headers: { Cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '), Origin: 'http://localhost' },
      body: form,
    });
    return { status: res.status, text: await res.text(), location: res.headers.get('location') };
  }

  it('the preview lists the description changes; Apply shows the count; the Activity line counts them beside the key.updated', async () => {
    const shown = await preview(arb({ 'desc.title': ['Hallo', 'Greeting on the home screen'] }));
    expect(shown.status, shown.text.slice(0, 300)).toBe(200);
    expect(textOf(shown.text)).toContain('0 new keys 0 new values 0 changed values 1 unchanged value 1 changed description 0 translation units');
    expect(listsIn(shown.text)).toEqual({ 'Changed descriptions': ['desc.title: "Greeting" → "Greeting on the home screen"'] });
    expect((await keyOf(p, 'desc.title')).description).toBe('Greeting');

    const sent = await apply(shown.text);
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    const result = await owner.get(sent.location!);
    expect(textOf(result.text)).toContain('Imported into de:0 new keys 0 new values 0 changed values 1 unchanged value 1 changed description');
    expect((await keyOf(p, 'desc.title')).description).toBe('Greeting on the home screen');

    const activity = await owner.get(`/portal/projects/${p.projectId}/activity`);
    const rows = [...(/<tbody>([^]*?)<\/tbody>/.exec(activity.text)![1]!).matchAll(/<tr>([^]*?)<\/tr>/g)].map(([, tr]) =>
      [...tr!.matchAll(/<td[^>]*>([^]*?)<\/td>/g)].slice(2, 4).map(([, td]) => textOf(td!)).join(' | '),
    );
    // Newest first (a publish the Apply asked for may come above): the import, then its key.updated.
    const at = rows.indexOf('imported an arb file into de | 0 new keys, 0 new values, 0 changed, 1 unchanged, 1 description changed (as draft)');
    expect(at, rows.join('\n')).toBeGreaterThanOrEqual(0);
    expect(rows[at + 1]).toBe('changed key desc.title | description: Greeting → Greeting on the home screen');
  });

  it("Apply imports only the descriptions its preview showed: a colleague's change since is not written over unseen", async () => {
    const key = await keyOf(p, 'desc.title');
    const shown = await preview(arb({ 'desc.title': ['Hallo', 'From the file'] }));
    expect(listsIn(shown.text)).toEqual({ 'Changed descriptions': [`desc.title: "${key.description}" → "From the file"`] });
    expect((await t.call(p.apiKey, 'PATCH', `/v1/keys/${key.id}`, { description: "A colleague's" })).status).toBe(200);

    const sent = await apply(shown.text);
    expect(sent.status).toBe(412);
    expect((await keyOf(p, 'desc.title')).description).toBe("A colleague's");
    // The new preview, to apply if it is still right.
    expect(listsIn(sent.text)).toEqual({ 'Changed descriptions': [`desc.title: "A colleague's" → "From the file"`] });
    expect((await apply(sent.text)).status).toBe(303);
    expect((await keyOf(p, 'desc.title')).description).toBe('From the file');
  });
});
