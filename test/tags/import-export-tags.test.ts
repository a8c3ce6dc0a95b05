// Tags in the file flows: an import with ?tag= gives every key its file names the tag (created keys
// with it, existing keys added, whatever conflict says, also when no value changes), counts the
// existing keys it tagged (keys_tagged) and records a key.tagged for each, as bulk-tags does; a dry
// run counts and writes nothing; a bad tag, or a key it would take past 20 tags, refuses the file
// whole. An export with ?tag= holds only the keys with that tag, with the other filters. Neither
// reaches another project's keys. Races of a tag change with the import: real Postgres only.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { heldAtUnitCharge } from '../support/held-at-unit-charge.ts';
import { FORMATS } from '../../core/formats/index.ts';
import { body, project, type Project } from '../translations/helpers.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

const importFile = (p: Project, language: string, file: unknown, query: string) =>
  t.call(p.apiKey, 'POST', `/v1/import/${language}?${query}`, typeof file === 'string' ? file : JSON.stringify(file), { 'Content-Type': 'application/octet-stream' });

async function imported(p: Project, language: string, file: unknown, query: string) {
  const res = await importFile(p, language, file, query);
  expect(res.status, await res.clone().text()).toBe(200);
  return body(res);
}

/** The project's live keys and their tags, by name. */
const tagsOf = async (p: Project) =>
  Object.fromEntries(
    (await sql()<{ key: string; tags: string[] }[]>`
      select key, tags from translation_keys where project_id = ${p.projectId} and deleted_at is null order by key collate "C"`).map((k) => [k.key, k.tags]),
  );

type Event = { type: string; entity_id: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };
const lastEventId = async () => (await sql()<{ max: string }[]>`select coalesce(max(id), 0)::text as max from domain_events`)[0]!.max;
const eventsSince = (p: Project, since: string) =>
  sql()<Event[]>`select type, entity_id, before, after from domain_events where project_id = ${p.projectId} and id > ${since}::bigint order by id`;
const idOf = async (p: Project, key: string) =>
  (await sql()<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} and key = ${key} and deleted_at is null`)[0]!.id;
const setTags = async (p: Project, key: string, tags: string[]) => {
  const res = await t.call(p.apiKey, 'PATCH', `/v1/keys/${await idOf(p, key)}`, { tags });
  expect(res.status, await res.clone().text()).toBe(200);
};

/** A project with en and de, the keys a.one (tagged web) and a.two (tagged mobile), approved in en. */
async function fixture(): Promise<Project> {
  const p = await project(t, ['en', 'de']);
  await imported(p, 'en', { 'a.one': 'One', 'a.two': 'Two' }, 'status=approved');
  await setTags(p, 'a.one', ['web']);
  await setTags(p, 'a.two', ['mobile']);
  return p;
}

describe('import with a tag', () => {
  it('creates keys with the tag, adds it to existing keys that lack it, counts them, and records a key.tagged for each tagged key', async () => {
    const p = await fixture();
    const since = await lastEventId();
    const answer = await imported(p, 'en', { 'a.one': 'One', 'a.two': 'Two changed', 'a.new': 'New' }, 'status=approved&tag=mobile');
    expect(answer).toMatchObject({ keys_created: 1, keys_tagged: 1, values_created: 1, values_updated: 1, values_unchanged: 1 });
    expect(await tagsOf(p)).toEqual({ 'a.new': ['mobile'], 'a.one': ['mobile', 'web'], 'a.two': ['mobile'] });
    const events = await eventsSince(p, since);
    const oneId = await idOf(p, 'a.one');
    expect(events.filter((e) => e.type === 'key.tagged' || e.type === 'key.updated')).toEqual([
      { type: 'key.tagged', entity_id: oneId, before: { tags: ['web'] }, after: { key: 'a.one', tags: ['mobile', 'web'] } },
    ]);
    expect(events.find((e) => e.type === 'translation.imported')!.after).toMatchObject({ tag: 'mobile', keys_tagged: 1, keys_created: 1 });
    // The listing and the tag list see them.
    expect((await body(await p.get('/v1/keys?tag=mobile'))).keys.map((k: { key: string }) => k.key)).toEqual(['a.new', 'a.one', 'a.two']);
    expect((await body(await p.get('/v1/keys/tags'))).tags).toEqual([{ name: 'mobile', keys: 3 }, { name: 'web', keys: 1 }]);

    // Again: nothing to tag, nothing changes, nothing recorded.
    const again = await lastEventId();
    expect(await imported(p, 'en', { 'a.one': 'One', 'a.two': 'Two changed', 'a.new': 'New' }, 'status=approved&tag=mobile')).toMatchObject({ keys_tagged: 0, values_unchanged: 3 });
    expect(await eventsSince(p, again)).toEqual([]);
  });

  it('the tag is taken as written (case kept), in NFC and trimmed; without tag the answer says 0 and tags stay', async () => {
    const p = await fixture();
    expect(await imported(p, 'en', { 'a.one': 'One' }, `status=approved&tag=${encodeURIComponent(' Cafe\u0301 ')}`)).toMatchObject({ keys_tagged: 1 });
    expect((await tagsOf(p))['a.one']).toEqual(['Café', 'web']);
    expect(await imported(p, 'en', { 'a.one': 'One!' }, 'status=approved')).toMatchObject({ keys_tagged: 0, values_updated: 1 });
    expect((await tagsOf(p))['a.one']).toEqual(['Café', 'web']);
  });

  it('a file that changes no value but tags keys records their key.tagged events (and no import: nothing served changed), and returns the counts', async () => {
    const p = await fixture();
    const since = await lastEventId();
    expect(await imported(p, 'en', { 'a.one': 'One', 'a.two': 'Two' }, 'status=approved&tag=release-2.3')).toMatchObject({
      keys_created: 0,
      keys_tagged: 2,
      values_unchanged: 2,
      values_updated: 0,
      translation_units: 0,
    });
    expect((await eventsSince(p, since)).map((e) => e.type)).toEqual(['key.tagged', 'key.tagged']);
    expect(await tagsOf(p)).toEqual({ 'a.one': ['release-2.3', 'web'], 'a.two': ['mobile', 'release-2.3'] });
  });

  it('tags whatever conflict says: keep (values kept) and fail (no value differs)', async () => {
    const p = await fixture();
    // de: a.one has a translator's value; the file's differs and is kept.
    await imported(p, 'de', { 'a.one': 'Eins' }, 'status=approved');
    const kept = await imported(p, 'de', { 'a.one': 'Eins (alt)', 'a.two': 'Zwei' }, 'status=approved&conflict=keep&tag=mobile');
    expect(kept).toMatchObject({ keys_tagged: 1, values_kept: 1, values_created: 1 });
    expect((await tagsOf(p))['a.one']).toEqual(['mobile', 'web']);
    const [stored] = await sql()<{ value: string }[]>`select value from translations where key_id = ${await idOf(p, 'a.one')} and language = 'de'`;
    expect(stored!.value).toBe('Eins');
    expect(await imported(p, 'de', { 'a.one': 'Eins', 'a.two': 'Zwei' }, 'status=approved&conflict=fail&tag=web')).toMatchObject({ keys_tagged: 1 });
    expect((await tagsOf(p))['a.two']).toEqual(['mobile', 'web']);
    // conflict=fail with a value that differs refuses the file, tags included.
    const refused = await importFile(p, 'de', { 'a.one': 'Anders' }, 'status=approved&conflict=fail&tag=other');
    expect(refused.status).toBe(409);
    expect((await tagsOf(p))['a.one']).toEqual(['mobile', 'web']);
  });

  it('a dry run answers the same counts and writes and records nothing', async () => {
    const p = await fixture();
    const since = await lastEventId();
    const before = await tagsOf(p);
    const answer = await imported(p, 'en', { 'a.one': 'One', 'a.two': 'Two', 'a.new': 'New' }, 'status=approved&tag=mobile&dry_run=true');
    expect(answer).toMatchObject({ dry_run: true, keys_created: 1, keys_tagged: 1 });
    expect(await tagsOf(p)).toEqual(before);
    expect(await eventsSince(p, since)).toEqual([]);
  });

  it('a key the tag would take past 20 tags refuses the whole file (422 naming the key), dry run included; nothing is written', async () => {
    const p = await fixture();
    const full = Array.from({ length: 20 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    await setTags(p, 'a.two', full);
    const since = await lastEventId();
    const before = await tagsOf(p);
    for (const dry of ['false', 'true']) {
      const res = await importFile(p, 'en', { 'a.one': 'One changed', 'a.two': 'Two', 'a.new': 'New' }, `status=approved&tag=mobile&dry_run=${dry}`);
      expect(res.status).toBe(422);
      const error = JSON.stringify(await res.json());
      expect(error).toMatch(/a\.two/);
      expect(error).toMatch(/20 tags/);
      expect(error).toMatch(/"tag"/);
      expect(error).not.toMatch(/a\.one/);
    }
    expect(await tagsOf(p)).toEqual(before);
    expect(await eventsSince(p, since)).toEqual([]);
    const [one] = await sql()<{ value: string }[]>`select value from translations where key_id = ${await idOf(p, 'a.one')} and language = 'en'`;
    expect(one!.value).toBe('One');
    // One of its tags already: nothing to add, so no refusal.
    expect(await imported(p, 'en', { 'a.two': 'Two' }, 'status=approved&tag=t05')).toMatchObject({ keys_tagged: 0 });
  });

  it('refuses a bad tag with a 422 naming tag, and writes nothing', async () => {
    const p = await fixture();
    const since = await lastEventId();
    const before = await tagsOf(p);
    for (const query of ['tag=', `tag=${encodeURIComponent('   ')}`, 'tag=a,b', `tag=${'x'.repeat(101)}`, 'tag=tab%09here', 'tag=nul%00', 'tag=a&tag=b']) {
      const res = await importFile(p, 'en', { 'a.one': 'Changed', 'a.new': 'New' }, `status=approved&${query}`);
      expect(res.status, query).toBe(422);
      const error = (await res.json()) as { error: { details?: { loc: string[] }[] } };
      expect(JSON.stringify(error), query).toMatch(/\["query","tag"\]|"tag"/);
    }
    expect(await tagsOf(p)).toEqual(before);
    expect(await eventsSince(p, since)).toEqual([]);
  });

  it('a key whose description and tags it changes gets one key.updated with both', async () => {
    const p = await fixture();
    const arb = JSON.stringify({ 'a.one': 'One', '@a.one': { description: 'The first' } });
    const since = await lastEventId();
    expect(await imported(p, 'en', arb, 'format=arb&status=approved&tag=mobile')).toMatchObject({ descriptions_updated: 1, keys_tagged: 1 });
    const updates = (await eventsSince(p, since)).filter((e) => e.type === 'key.updated');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      before: { description: null, tags: ['web'] },
      after: { key: 'a.one', description: 'The first', tags: ['mobile', 'web'] },
    });
  });

  it("never tags another project's keys", async () => {
    const a = await fixture();
    const b = await fixture();
    await imported(a, 'en', { 'a.one': 'One', 'a.two': 'Two' }, 'status=approved&tag=only-a');
    expect(await tagsOf(b)).toEqual({ 'a.one': ['web'], 'a.two': ['mobile'] });
    expect((await body(await b.get('/v1/keys/tags'))).tags.map((x: { name: string }) => x.name)).toEqual(['mobile', 'web']);
  });

  it('the portal preview lists the keys it would tag', async () => {
    const p = await fixture();
    const { previewImport } = await import('../../core/files/import-file.ts');
    const preview = await previewImport(t.runtime.deps, {
      projectId: p.projectId,
      actor: { type: 'api_key', id: p.apiKeyId },
      language: 'en',
      format: 'json',
      status: 'approved',
      conflict: 'overwrite',
      group: 'Default',
      tag: 'mobile',
      body: new TextEncoder().encode(JSON.stringify({ 'a.one': 'One', 'a.two': 'Two' })),
    });
    expect(preview).toMatchObject({ dry_run: true, keys_tagged: 1, changes: { tagged_keys: ['a.one'] } });
    expect((await tagsOf(p))['a.one']).toEqual(['web']);
  });
});

describe('export with a tag', () => {
  /** en and de: a.one (web), a.two (mobile), b.three (mobile, in group b), a.four (no tags); all approved. */
  async function exported(): Promise<Project> {
    const p = await fixture();
    await imported(p, 'en', { 'a.four': 'Four', 'b.three': 'Three' }, 'status=approved');
    await imported(p, 'de', { 'a.one': 'Eins', 'a.two': 'Zwei', 'b.three': 'Drei', 'a.four': 'Vier' }, 'status=approved');
    await setTags(p, 'b.three', ['mobile', 'Mobile']);
    return p;
  }
  const exportOf = async (p: Project, query: string) => {
    const res = await p.get(`/v1/export/de?${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  };
  const jsonExport = async (p: Project, query: string) => JSON.parse(new TextDecoder().decode(await exportOf(p, query)));

  it('json: only the keys with the tag (exact, case kept, in NFC), with group and namespace', async () => {
    const p = await exported();
    expect(await jsonExport(p, 'format=json&tag=mobile')).toEqual({ 'a.two': 'Zwei', 'b.three': 'Drei' });
    expect(await jsonExport(p, 'format=json&tag=Mobile')).toEqual({ 'b.three': 'Drei' });
    expect(await jsonExport(p, `format=json&tag=${encodeURIComponent(' web ')}`)).toEqual({ 'a.one': 'Eins' });
    expect(await jsonExport(p, 'format=json&tag=mobile&group=a')).toEqual({ 'a.two': 'Zwei' });
    expect(await jsonExport(p, 'format=json&tag=mobile&namespace=b')).toEqual({ three: 'Drei' });
    expect(await jsonExport(p, 'format=json&tag=nobody')).toEqual({});
    expect(Object.keys(await jsonExport(p, 'format=json'))).toHaveLength(4);
  });

  it('xliff: only the tagged keys, each with its source text', async () => {
    const p = await exported();
    const bytes = await exportOf(p, 'format=xliff&source=en&tag=mobile&group=a');
    const { entries } = FORMATS.xliff.parse(bytes, { language: 'de', isSource: false });
    expect(entries.map((e) => [e.key, e.value])).toEqual([['a.two', 'Zwei']]);
    expect(new TextDecoder().decode(bytes)).toContain('Two');
    expect(new TextDecoder().decode(bytes)).not.toContain('One');
  });

  it('a text that could never be a tag matches no key; a blank one, NUL or a second tag is 422', async () => {
    const p = await exported();
    expect(await jsonExport(p, 'format=json&tag=a,b')).toEqual({});
    expect(await jsonExport(p, `format=json&tag=${'x'.repeat(101)}`)).toEqual({});
    for (const query of ['tag=', `tag=${encodeURIComponent('  ')}`, 'tag=a%00', 'tag=a&tag=b', `tag=${'x'.repeat(1001)}`]) {
      const res = await p.get(`/v1/export/de?format=json&${query}`);
      expect(res.status, query).toBe(422);
      expect(await res.text(), query).toMatch(/tag/);
    }
  });

  it("never holds another project's keys with the same tag", async () => {
    const a = await exported();
    const b = await project(t, ['en', 'de']);
    await imported(b, 'de', { 'theirs.secret': 'Geheim' }, 'status=approved&tag=mobile');
    expect(await jsonExport(a, 'format=json&tag=mobile')).toEqual({ 'a.two': 'Zwei', 'b.three': 'Drei' });
    expect(await jsonExport(b, 'format=json&tag=mobile')).toEqual({ 'theirs.secret': 'Geheim' });
  });
});

describe.runIf(usingRealPostgres())('a tag change racing an import', () => {
  it("a key's tags changed while the import ran: it runs again, and its key.tagged keeps the tags it replaced", async () => {
    const p = await fixture();
    // A value changes too, so that the import charges a unit (and is held at its charge).
    const colleague = await heldAtUnitCharge(sql(), p.accountId, () => importFile(p, 'en', { 'a.one': 'One 2' }, 'status=approved&tag=mobile'), async () => {
      await setTags(p, 'a.one', ['web', 'needs-context']);
    });
    expect(colleague.status, await colleague.clone().text()).toBe(200);
    expect(await body(colleague)).toMatchObject({ values_updated: 1, keys_tagged: 1 });
    expect((await tagsOf(p))['a.one']).toEqual(['mobile', 'needs-context', 'web']);
    const [last] = await sql()<{ before: { tags: string[] }; after: { tags: string[] } }[]>`
      select before, after from domain_events where project_id = ${p.projectId} and type = 'key.tagged' order by id desc limit 1`;
    expect(last).toMatchObject({ before: { tags: ['needs-context', 'web'] }, after: { tags: ['mobile', 'needs-context', 'web'] } });

    // The tag given meanwhile: nothing left to tag, counted 0.
    const same = await heldAtUnitCharge(sql(), p.accountId, () => importFile(p, 'en', { 'a.one': 'One 3' }, 'status=approved&tag=release'), async () => {
      await setTags(p, 'a.one', ['release']);
    });
    expect(await body(same)).toMatchObject({ values_updated: 1, keys_tagged: 0 });
    expect((await tagsOf(p))['a.one']).toEqual(['release']);
  });

  it('a key deleted while a tagging import ran: the import runs again and creates it, tagged', async () => {
    const p = await fixture();
    const id = await idOf(p, 'a.one');
    const res = await heldAtUnitCharge(sql(), p.accountId, () => importFile(p, 'en', { 'a.one': 'One 2' }, 'status=approved&tag=mobile'), async () => {
      expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${id}`)).status).toBeLessThan(300);
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await body(res)).toMatchObject({ keys_created: 1, keys_tagged: 0 });
    expect((await tagsOf(p))['a.one']).toEqual(['mobile']);
    const [gone] = await sql()<{ tags: string[] }[]>`select tags from translation_keys where id = ${id}`;
    expect(gone!.tags).toEqual(['web']);
  });
});
