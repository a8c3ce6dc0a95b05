// The portal's import preview through HTTP: under its counts, the keys it would create, the values
// it would change (text and status before and after), the values it would create, a warning when
// approved values would lose that status, "and N more" past the first 100 of each; conflict=keep
// says existing values stay; the quality warnings the API's dry run reports, before Apply; the
// preview writes nothing, and its Apply form imports the same file (then redirects: a reload of the
// result imports nothing again). A refused file brings the form back with the choices kept and the
// message at the file field.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from '../translations/helpers.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';

const t = useTestApp();

type Session = { cookie: string; csrf: string };

/** A portal owner of `p`'s account, signed in. */
async function ownerOf(p: Project): Promise<Session> {
  const sql = t.runtime.deps.sql;
  const [user] = await sql<{ id: string }[]>`
    insert into users (email, password_hash) values (${`owner-${p.projectId}@example.com`}, ${await hashPassword('not used here')}) returning id`;
  await sql`insert into memberships (user_id, account_id, role) values (${user!.id}, ${p.accountId}, 'owner')`;
  const s = await createSession(t.runtime.deps, user!.id);
  return { cookie: `tms_session=${s.token}`, csrf: s.csrf };
}

/** The import form as the page sends it: multipart, with the file. */
async function preview(session: Session, p: Project, file: Record<string, string>, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set('_csrf', session.csrf);
  for (const [k, v] of Object.entries({ language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', group: 'Default', ...fields })) form.set(k, v);
  form.set('file', new File([JSON.stringify(file)], 'de.json', { type: 'application/json' }));
  const res = await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, {
    method: 'POST',
    headers: { Cookie: session.cookie, Origin: 'http://localhost' },
    body: form,
  });
  return { status: res.status, text: await res.text() };
}

/** The preview's Apply form sent as the browser sends it: its hidden fields, encoded as its enctype says. */
async function apply(session: Session, p: Project, html: string) {
  const [, attributes, inner] = /<form method="post" action="[^"]*\/import"([^>]*)>([\s\S]*?)<\/form>/.exec(html)!;
  const fields = [...inner!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, decode(value!)] as const);
  const multipart = /enctype="multipart\/form-data"/.test(attributes!);
  const form = multipart ? new FormData() : new URLSearchParams();
  for (const [name, value] of fields) form.append(name, value);
  const res = await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, {
    method: 'POST',
    headers: { Cookie: session.cookie, Origin: 'http://localhost', ...(multipart ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }) },
    body: multipart ? (form as FormData) : form.toString(),
  });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

/** A page of the portal, as the browser opens it after a redirect. */
async function open(session: Session, path: string) {
  const res = await t.app.request(`http://localhost${path}`, { headers: { Cookie: session.cookie } });
  return { status: res.status, text: await res.text() };
}

const decode = (html: string) =>
  html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
/** An element's text, as read: block ends (a list item, a heading) separate words, inline tags do not. */
const textOf = (html: string) =>
  decode(html.replace(/<\/(li|h\d|p|ul)>/g, ' ').replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();

/** The preview's lists of changes by their heading, each item as text; and its other lines. */
function changesIn(html: string) {
  const block = /<div class="changes">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  const lists: Record<string, string[]> = {};
  for (const [, title, items] of block.matchAll(/<h3>([^<]*)<\/h3><ul>([\s\S]*?)<\/ul>/g)) {
    lists[title!] = [...items!.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]!));
  }
  const lines = [...block.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].map((m) => textOf(m[1]!));
  return { lists, lines, block };
}

/** Everything a preview must leave as it was: keys, and every value with its status. */
async function state(p: Project) {
  return t.runtime.deps.sql`
    select k.key, k.group_name, k.description, t.language, t.value, t.status, t.updated_at
    from translation_keys k left join translations t on t.key_id = k.id
    where k.project_id = ${p.projectId} order by k.key, t.language`;
}

let p: Project;
let session: Session;

beforeAll(async () => {
  p = await project(t, ['de', 'ar']);
  session = await ownerOf(p);
  const approved = await t.call(p.apiKey, 'POST', '/v1/import/de?status=approved', { 'home.title': 'Hallo', 'nav.home': 'Start', other: 'Bleibt' });
  expect(approved.status, await approved.clone().text()).toBe(200);
  const drafts = await t.call(p.apiKey, 'POST', '/v1/import/de?status=draft', { 'home.body': 'Text', footer: 'Fuß' });
  expect(drafts.status, await drafts.clone().text()).toBe(200);
  await p.key('empty.one');
});

/** Two new keys, a value for a key without one, two approved values changed (one only its status), one draft changed, one unchanged. */
const FILE = {
  'home.title': 'Hallo Welt',
  'nav.home': 'Start',
  'home.body': 'Text',
  footer: 'Fußzeile',
  'empty.one': 'Endlich',
  'new.one': 'Neu',
  'new.two': '<b>Auch neu</b>',
};

describe('the import preview', () => {
  it('lists the new keys, the changed values with their statuses, the new values, and warns about approved values', async () => {
    const before = await state(p);
    const res = await preview(session, p, FILE);
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(textOf(res.text)).toContain('2 new keys 3 new values 3 changed values 1 unchanged value');
    const { lists, lines, block } = changesIn(res.text);
    expect(lists).toEqual({
      'New keys': ['new.one', 'new.two'],
      'Changed values': [
        'home.title: "Hallo" → "Hallo Welt" (approved → draft)',
        'nav.home: "Start" (text unchanged) (approved → draft)',
        'footer: "Fuß" → "Fußzeile" (draft)',
      ],
      'New values': ['empty.one: "Endlich"', 'new.one: "Neu"', 'new.two: "<b>Auch neu</b>"'],
    });
    expect(lines).toEqual(['⚠ 2 approved values would become draft.']);
    // Texts are escaped, and marked with their language and direction.
    expect(block).toContain('&lt;b&gt;Auch neu&lt;/b&gt;');
    expect(block).not.toContain('<b>');
    expect(block).toContain('<span lang="de" dir="ltr">Hallo Welt</span>');
    expect(block).toContain('<span class="status-approved">approved</span> → <span class="status-draft">draft</span>');

    // The preview wrote nothing.
    expect(await state(p)).toEqual(before);
    expect((await body(await p.get('/v1/translations/de'))).translations).toEqual({ 'home.title': 'Hallo', 'nav.home': 'Start', other: 'Bleibt' });
  });

  it('no warning when the import keeps the approved status', async () => {
    const res = await preview(session, p, { 'home.title': 'Hallo Welt', other: 'Bleibt' }, { status: 'approved' });
    expect(res.status).toBe(200);
    const { lists, lines } = changesIn(res.text);
    expect(lists).toEqual({ 'Changed values': ['home.title: "Hallo" → "Hallo Welt" (approved)'] });
    expect(lines).toEqual([]);
  });

  it('with conflict=keep: no changed values, and it says existing values stay', async () => {
    const before = await state(p);
    const res = await preview(session, p, FILE, { conflict: 'keep' });
    expect(res.status).toBe(200);
    expect(textOf(res.text)).toContain('2 new keys 3 new values 0 changed values 4 unchanged values');
    const { lists, lines } = changesIn(res.text);
    expect(lists).toEqual({
      'New keys': ['new.one', 'new.two'],
      'New values': ['empty.one: "Endlich"', 'new.one: "Neu"', 'new.two: "<b>Auch neu</b>"'],
    });
    expect(lines).toEqual(['Existing values are kept: 3 values of the file that differ from the stored ones would not be written.']);
    const same = changesIn((await preview(session, p, { other: 'Bleibt', 'new.one': 'Neu' }, { conflict: 'keep', status: 'approved' })).text);
    expect(same.lines).toEqual(['Existing values are kept: none of them differs from the file.']);
    expect(await state(p)).toEqual(before);
  });

  it('conflict=fail refuses the preview as it refuses the import, naming the keys', async () => {
    const res = await preview(session, p, FILE, { conflict: 'fail' });
    expect(res.status).toBe(409);
    expect(textOf(res.text)).toContain('existing values would change for home.title, nav.home, footer');
  });

  it('shows a right-to-left language\'s texts right to left', async () => {
    const res = await preview(session, p, { 'new.one': 'جديد' }, { language: 'ar' });
    expect(res.status).toBe(200);
    expect(changesIn(res.text).block).toContain('<span lang="ar" dir="rtl">جديد</span>');
  });

  it('Apply imports what the preview showed and answers the applied counts', async () => {
    const shown = await preview(session, p, FILE);
    const sent = await apply(session, p, shown.text);
    // Post/Redirect/Get: the counts are on the Files page the answer sends the browser to.
    expect(sent.status, sent.text.slice(0, 500)).toBe(303);
    expect(sent.location).toMatch(new RegExp(`^/portal/projects/${p.projectId}/files\\?outcome=[0-9a-f-]{36}$`));
    const res = await open(session, sent.location!);
    expect(res.status).toBe(200);
    expect(textOf(res.text)).toContain('Imported into de:2 new keys 3 new values 3 changed values 1 unchanged value');
    expect(res.text).not.toContain('<div class="changes">');
    const all = (await body(await p.get('/v1/translations/de?status=all'))).translations;
    expect(Object.fromEntries(Object.entries(all as Record<string, { value: string; status: string }>).map(([k, v]) => [k, `${v.value} (${v.status})`]))).toEqual({
      'home.title': 'Hallo Welt (draft)',
      'nav.home': 'Start (draft)',
      'home.body': 'Text (draft)',
      footer: 'Fußzeile (draft)',
      'empty.one': 'Endlich (draft)',
      'new.one': 'Neu (draft)',
      'new.two': '<b>Auch neu</b> (draft)',
      other: 'Bleibt (approved)',
    });
    expect((await body(await p.get('/v1/translations/de'))).translations).toEqual({ other: 'Bleibt' });
  });
});

describe('a file near the 10 MiB limit', () => {
  it('previews, and its Apply (the file sent back as base64) is taken and imports it', async () => {
    const p = await project(t, ['de']);
    const session = await ownerOf(p);
    // 1,000 values of 5,000 'ÿ' (10 bytes a value's worth of UTF-8 each: C3 BF), 9.5 MiB in all:
    // its base64 is full of '/', which a URL-encoded form would send as %2F.
    const file = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`big.k${i}`, 'ÿ'.repeat(5_000)]));
    const shown = await preview(session, p, file);
    expect(shown.status, shown.text.slice(0, 300)).toBe(200);
    const sent = await apply(session, p, shown.text);
    expect(sent.status, sent.text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').slice(0, 300)).toBe(303);
    const all = (await body(await p.get('/v1/translations/de?status=all'))).translations as Record<string, unknown>;
    expect(Object.keys(all)).toHaveLength(1_000);
  });

  it('a file past what the portal takes gets the portal\'s page saying so (413), not the API\'s JSON', async () => {
    const p = await project(t, ['de']);
    const session = await ownerOf(p);
    const form = new FormData();
    form.set('_csrf', session.csrf);
    form.set('file', new File([Buffer.alloc(14 * 1024 * 1024, ' ')], 'de.json', { type: 'application/json' }));
    const res = await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, {
      method: 'POST',
      headers: { Cookie: session.cookie, Origin: 'http://localhost', Accept: 'text/html' },
      body: form,
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBeTruthy();
    expect(textOf(await res.text())).toContain('The file is larger than 10 MiB, the most an import takes');
  });
});

describe('a preview of more than 100 changes of a kind', () => {
  it('lists the first 100 of each and says how many more', async () => {
    const q = await project(t, ['de']);
    const owner = await ownerOf(q);
    const name = (prefix: string, i: number) => `${prefix}.k${String(i).padStart(3, '0')}`;
    const existing = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [name('old', i), `Alt ${i}`]));
    expect((await t.call(q.apiKey, 'POST', '/v1/import/de?status=approved', existing)).status).toBe(200);
    const file = {
      ...Object.fromEntries(Array.from({ length: 120 }, (_, i) => [name('old', i), `Neu ${i}`])),
      ...Object.fromEntries(Array.from({ length: 150 }, (_, i) => [name('new', i), `Frisch ${i}`])),
    };
    const res = await preview(owner, q, file);
    expect(res.status).toBe(200);
    const { lists, lines } = changesIn(res.text);
    expect(lists['New keys']).toHaveLength(101);
    expect(lists['New keys']!.slice(0, 2)).toEqual(['new.k000', 'new.k001']);
    expect(lists['New keys']!.at(-2)).toBe('new.k099');
    expect(lists['New keys']!.at(-1)).toBe('and 50 more');
    expect(lists['Changed values']).toHaveLength(101);
    expect(lists['Changed values']![0]).toBe('old.k000: "Alt 0" → "Neu 0" (approved → draft)');
    expect(lists['Changed values']!.at(-1)).toBe('and 20 more');
    expect(lists['New values']!.at(-1)).toBe('and 50 more');
    // The warning counts them all, not only those listed.
    expect(lines).toEqual(['⚠ 120 approved values would become draft.']);
  });
});

describe('the quality warnings of an import, before Apply', () => {
  it('lists the dry run\'s quality warnings (as the API reports them): how many, then each with its key, check and message', async () => {
    const q = await project(t, ['en', 'de']);
    const owner = await ownerOf(q);
    const source = { 'cart.items': '{count, plural, one {# item} other {# items}}', greet: 'Hello {name}', 'cart.html': 'Click <b>here</b>' };
    expect((await t.call(q.apiKey, 'POST', '/v1/import/en?status=approved', source)).status).toBe(200);
    const file = { 'cart.items': '{count, plural, one {# Artikel}', greet: 'Hallo', 'cart.html': 'Klicke <b>hier' };
    const dryRun = await body(await t.call(q.apiKey, 'POST', '/v1/import/de?dry_run=true', file));
    const expected = dryRun.quality_warnings as { count: number; values: { key: string; check: string; message: string }[] };
    expect(expected.count).toBeGreaterThanOrEqual(3);
    expect(new Set(expected.values.map((w) => w.check))).toEqual(new Set(['icu_syntax', 'placeholders', 'html_tags']));

    const res = await preview(owner, q, file);
    expect(res.status).toBe(200);
    const block = /<div class="quality-warnings">([\s\S]*?)<\/div>/.exec(res.text)?.[1];
    expect(block, 'the preview lists the quality warnings').toBeDefined();
    expect(textOf(/<p class="warn-title">([\s\S]*?)<\/p>/.exec(block!)![1]!)).toBe(`⚠ ${expected.count} quality warnings in the values it would write`);
    const names: Record<string, string> = { icu_syntax: 'ICU syntax', placeholders: 'Placeholders', html_tags: 'Tags' };
    const items = [...block!.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]!));
    expect(items).toEqual(expected.values.map((w) => `${w.key}: ${names[w.check]}: ${w.message}`));
    // Before the Apply button, and nothing written.
    expect(res.text.indexOf('class="quality-warnings"')).toBeLessThan(res.text.indexOf('Apply this import'));
    expect((await t.runtime.deps.sql`select 1 from translations where project_id = ${q.projectId} and language = 'de'`).length).toBe(0);
  });
});

describe('a file the import form refuses', () => {
  it('comes back with the language, format, status, conflict and group chosen, the message tied to the file field', async () => {
    const q = await project(t, ['en', 'de', 'fr']);
    const owner = await ownerOf(q);
    const form = new FormData();
    form.set('_csrf', owner.csrf);
    const choice = { language: 'fr', format: 'json', status: 'review', conflict: 'keep', group: 'Checkout' };
    for (const [k, v] of Object.entries(choice)) form.set(k, v);
    form.set('file', new File(['{"broken": '], 'fr.json', { type: 'application/json' }));
    const res = await t.app.request(`http://localhost/portal/projects/${q.projectId}/import`, { method: 'POST', headers: { Cookie: owner.cookie, Origin: 'http://localhost' }, body: form });
    expect(res.status).toBe(422);
    const html = await res.text();
    const importForm = /<form method="post" action="[^"]*\/import" enctype="multipart\/form-data"[^>]*>([\s\S]*?)<\/form>/.exec(html)![1]!;
    const selected = (name: string) => new RegExp(`<select name="${name}"[^>]*>[\\s\\S]*?<option value="([^"]+)" selected="">`).exec(importForm)?.[1];
    expect({ language: selected('language'), format: selected('format'), status: selected('status'), conflict: selected('conflict') }).toEqual({ language: 'fr', format: 'json', status: 'review', conflict: 'keep' });
    expect(importForm).toMatch(/<input name="group" value="Checkout"/);
    expect(importForm).toMatch(/<input type="file" name="file" required="" aria-invalid="true" aria-describedby="import-file-error"\/>/);
    expect(importForm).toMatch(/<p id="import-file-error" class="field-error" role="alert">[^<]+<\/p>/);
    expect(textOf(importForm)).toContain('Nothing was imported. The choices below are kept');

    // No file at all: the same, at the file field.
    const empty = new FormData();
    empty.set('_csrf', owner.csrf);
    for (const [k, v] of Object.entries(choice)) empty.set(k, v);
    const none = await t.app.request(`http://localhost/portal/projects/${q.projectId}/import`, { method: 'POST', headers: { Cookie: owner.cookie, Origin: 'http://localhost' }, body: empty });
    expect(none.status).toBe(422);
    const noneHtml = await none.text();
    expect(noneHtml).toMatch(/<p id="import-file-error" class="field-error" role="alert">Choose a file to import<\/p>/);
    expect(noneHtml).toMatch(/<select name="language"[^>]*>[\s\S]*?<option value="fr" selected="">/);
  });
});

describe('an Excel workbook', () => {
  it('previews and applies as bytes (the Apply form carries them as base64): a sheet with a column per language', async () => {
    const { tableWorkbook } = await import('../formats/support/workbook-parts.ts');
    const p = await project(t, ['en', 'de']);
    const session = await ownerOf(p);
    const workbook = tableWorkbook([
      ['key', 'en', 'de'],
      ['home.title', 'Welcome', 'Willkommen'],
      ['home.cta', 'Start', ''],
    ]);
    const form = new FormData();
    form.set('_csrf', session.csrf);
    for (const [k, v] of Object.entries({ language: 'de', format: 'xlsx', status: 'draft', conflict: 'overwrite', group: 'Default' })) form.set(k, v);
    form.set('file', new File([workbook], 'sheet.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
    const res = await t.app.request(`http://localhost/portal/projects/${p.projectId}/import`, { method: 'POST', headers: { Cookie: session.cookie, Origin: 'http://localhost' }, body: form });
    const shown = await res.text();
    expect(res.status, shown.slice(0, 300)).toBe(200);
    expect(textOf(shown)).toContain('1 row has no text in the de column: skipped (not translated yet)');
    const sent = await apply(session, p, shown);
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    expect((await body(await p.get('/v1/translations/de?status=all'))).translations).toEqual({ 'home.title': { value: 'Willkommen', status: 'draft', group: 'home' } });
  });
});
