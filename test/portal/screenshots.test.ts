// Screenshots in the portal (docs/portal.md, "The Screenshots tab"), through HTTP as signed-in
// members: an upload through the form with a real image (Chromium's PNG, cwebp's WebP), its keys
// linked by name, sent twice by a double click and uploaded once; the key's value page with the
// image and its region's outline; the image route (the bytes, ETag and 304, private caching, nosniff;
// another account's user and a foreign id a 404); the tab's grid, its pages of 100 and one key's
// screenshots; linking by name, a region, clearing, unlinking, renaming, deleting; the editor's
// count beside a key; refusals (a text file, an SVG, over 4 MiB, a region outside the image, an
// unknown key name) a 4xx at their field with what was typed kept and nothing written; a translator
// reads but cannot upload; and the Activity lines.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient, PortalResponse } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { decode, formFields } from './support/form-fields.ts';
import { postMultipart, type FilePart } from './support/multipart.ts';
import { uploadScreenshot } from '../../core/screenshots/upload-screenshot.ts';
import { SCREENSHOT_MAX_BYTES } from '../../core/screenshots/schemas.ts';

const t = useTestApp();
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/screenshots/${name}`, import.meta.url)));
const PNG = fixture('sign-in.png');
const WEBP = fixture('menu.webp');
const png = (name = 'sign-in.png'): FilePart => ({ name, type: 'image/png', bytes: PNG });

let p: TestProject;
let owner: PortalClient;
let translator: PortalClient;
let stranger: PortalClient;
/** Key name -> id. */
const keys: Record<string, string> = {};

const tab = (project: TestProject = p) => `/portal/projects/${project.projectId}/screenshots`;
const shotPage = (id: string) => `${tab()}/${id}`;
const imagePath = (id: string, project: TestProject = p) => `${tab(project)}/${id}/image`;
const valuePage = (keyId: string, language = 'de') => `/portal/projects/${p.projectId}/keys/${keyId}/values/${language}/history`;
const upload = (client: PortalClient, fields: Record<string, string>, file?: FilePart) => postMultipart(t.app, client, tab(), fields, file ? { file } : {});
const sql = () => t.runtime.deps.sql;

/** What a refused form must leave as it was: the project's screenshots, their links, the images stored and the events. */
async function state(project: TestProject = p) {
  const rows = await sql()`select id, name from screenshots where project_id = ${project.projectId} order by seq`;
  const links = await sql()`select screenshot_id, key_id, region_x, region_y, region_width, region_height from screenshot_keys where project_id = ${project.projectId} order by 1, 2`;
  const events = await sql()`select count(*)::int as n from domain_events where project_id = ${project.projectId} and type like 'screenshot.%'`;
  const objects = (await t.runtime.deps.objects.list(`projects/${project.projectId}/screenshots/`)).length;
  return JSON.stringify({ rows, links, events, objects });
}

/** A screenshot of the project through core (the form has its own tests here). */
const stored = (name: string, keyIds: string[] = [], body = PNG) =>
  uploadScreenshot(t.runtime.deps, { projectId: p.projectId, actor: { type: 'api_key', id: p.apiKeyId }, body, name, keyIds });

/** The id a redirect to a screenshot's page names. */
const idOf = (res: PortalResponse) => /\/screenshots\/([0-9a-f-]{36})/.exec(res.location ?? '')![1]!;

/** The problem shown at a field of a refused form: its message, tied to it by aria-describedby. */
function problemAt(html: string, form: string, field: string): string {
  const id = `problem-${form}-${field}`;
  expect(html, `no problem at ${field}`).toContain(`aria-describedby="${id}"`);
  return decode(new RegExp(`<p class="field-error" id="${id}">([^<]*)</p>`).exec(html)![1]!);
}

beforeAll(async () => {
  p = await t.newProject('team');
  for (const code of ['en', 'de']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  for (const [key, group_name] of [
    ['auth.sign_in', 'auth'],
    ['forgot', 'auth'],
    ['welcome', 'home'],
    ['menu.settings', 'menu'],
  ]) {
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name });
    keys[key!] = ((await res.json()) as { id: string }).id;
  }
  owner = await signedInMember(t, p.accountId, 'developer');
  translator = await signedInMember(t, p.accountId, 'translator', { languages: ['de'] });
  const elsewhere = await t.newProject('team');
  stranger = await signedInMember(t, elsewhere.accountId, 'owner');
});

describe('uploading through the form', () => {
  it('takes a real PNG, links the keys named (by name, or group/name), and shows its page saying so', async () => {
    await owner.get(tab());
    const res = await upload(owner, { name: 'Sign-in page', keys: 'auth.sign_in\r\nauth/forgot\r\n\r\n' }, png());
    expect(res.status, res.text.slice(0, 400)).toBe(303);
    const id = idOf(res);
    const page = await owner.follow(res);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Uploaded the screenshot Sign-in page (390 × 260 px), linked to 2 keys.');
    expect(page.text).toContain(`<img src="${imagePath(id)}" alt="Screenshot: Sign-in page" width="390" height="260"`);
    expect(page.text).toContain('390 × 260 px · PNG · 8.4 KB');
    const [row] = await sql()<{ name: string; width: number; content_type: string }[]>`select name, width, content_type from screenshots where id = ${id}`;
    expect(row).toEqual({ name: 'Sign-in page', width: 390, content_type: 'image/png' });
    const linked = await sql()<{ key_id: string }[]>`select key_id from screenshot_keys where screenshot_id = ${id} order by key_id`;
    expect(linked.map((l) => l.key_id).sort()).toEqual([keys['auth.sign_in'], keys.forgot].sort());
    // Recorded as the user's act, in words on Activity.
    const [event] = await sql()<{ actor_type: string; after: { keys: string[] } }[]>`select actor_type, after from domain_events where entity_id = ${id} and type = 'screenshot.added'`;
    expect(event!.actor_type).toBe('user');
    expect(event!.after.keys).toHaveLength(2);
    const activity = await owner.get(`/portal/projects/${p.projectId}/activity`);
    expect(activity.text).toContain('uploaded the screenshot <span class="mono">Sign-in page</span>');
    expect(activity.text).toContain('390 × 260 px; linked to 2 keys');
  });

  it('names it after the file when no name is typed; a WebP is a WebP whatever the browser says it is', async () => {
    const res = await upload(owner, { name: '', keys: '' }, { name: 'main-menu.webp', type: 'application/octet-stream', bytes: WEBP });
    expect(res.status).toBe(303);
    const [row] = await sql()<{ name: string; content_type: string; width: number }[]>`select name, content_type, width from screenshots where id = ${idOf(res)}`;
    expect(row).toEqual({ name: 'main-menu', content_type: 'image/webp', width: 120 });
    expect((await owner.follow(res)).text).toContain('Uploaded the screenshot main-menu (120 × 80 px). Mark where each key is below.');
  });

  it('sent twice with the same one-time token (a double click), uploads one screenshot', async () => {
    const form = await owner.get(tab());
    const submission = /name="submission" value="([^"]+)"/.exec(form.text)![1]!;
    const before = await sql()<{ n: number }[]>`select count(*)::int as n from screenshots where project_id = ${p.projectId}`;
    const fields = { submission, name: 'Double click', keys: 'welcome' };
    const [a, b] = await Promise.all([upload(owner, fields, png()), upload(owner, fields, png())]);
    expect([a.status, b.status]).toEqual([303, 303]);
    const after = await sql()<{ n: number }[]>`select count(*)::int as n from screenshots where project_id = ${p.projectId}`;
    expect(after[0]!.n).toBe(before[0]!.n + 1);
    expect(idOf(a)).toBe(idOf(b));
    const again = await upload(owner, fields, png());
    expect((await owner.follow(again)).text).toContain('This form was already sent: the screenshot Double click was uploaded once.');
    expect(await t.runtime.deps.objects.list(`projects/${p.projectId}/screenshots/`)).toHaveLength(after[0]!.n);
  });

  it.each([
    ['a text file', { name: 'notes.png', type: 'image/png', bytes: new TextEncoder().encode('not an image at all') }, 'the body is not a PNG, JPEG or WebP image'],
    [
      'an SVG',
      { name: 'logo.svg', type: 'image/svg+xml', bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>') },
      'the body is not a PNG, JPEG or WebP image',
    ],
    ['a PNG over 4 MiB', { name: 'huge.png', type: 'image/png', bytes: new Uint8Array(SCREENSHOT_MAX_BYTES + 1).fill(7) }, 'at most 4,194,304 (4 MiB) are taken'],
    ['a PNG cut short', { name: 'cut.png', type: 'image/png', bytes: PNG.subarray(0, 200) }, 'the PNG file is cut short'],
    ['no file', undefined, 'Choose an image file'],
  ])('refuses %s at the file field (422), keeping the name and keys typed, writing nothing', async (_label, file, message) => {
    const before = await state();
    const res = await upload(owner, { name: 'Refused <b>one</b>', keys: 'auth.sign_in' }, file);
    expect(res.status).toBe(422);
    expect(problemAt(res.text, 'upload', 'file')).toContain(message);
    expect(res.text).toContain('value="Refused &lt;b&gt;one&lt;/b&gt;"');
    expect(/<textarea name="keys"[^>]*>([^<]*)<\/textarea>/.exec(res.text)![1]).toBe('auth.sign_in');
    // The form comes back open, saying the file must be chosen again.
    expect(res.text).toMatch(/<details class="card" open="">\s*<summary>Upload a screenshot<\/summary>/);
    expect(res.text).toContain('choose the file again');
    expect(await state()).toBe(before);
  });

  it('refuses key names that are no live key of the project, naming them at the keys field; a key in the trash is none', async () => {
    const trashed = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'old.title' })).json()) as { id: string }).id;
    await t.call(p.apiKey, 'DELETE', `/v1/keys/${trashed}`);
    const before = await state();
    const res = await upload(owner, { name: 'Keys', keys: 'auth.sign_in\nnot.a.key\nold.title\nhome/forgot' }, png());
    expect(res.status).toBe(422);
    expect(problemAt(res.text, 'upload', 'keys')).toBe('Not keys of this project (or in the trash): not.a.key, old.title, home/forgot');
    expect(res.text).toContain('Not uploaded: Not keys of this project');
    expect(await state()).toBe(before);
  });

  it('a translator sees the tab without the form, and is refused an upload (403), nothing written', async () => {
    const page = await translator.get(tab());
    expect(page.status).toBe(200);
    expect(page.text).toContain('aria-current="page" class="tab active">Screenshots</a>');
    expect(page.text).not.toContain('Upload a screenshot');
    const before = await state();
    const res = await upload(translator, { name: 'Mine' }, png());
    expect(res.status).toBe(403);
    expect(await state()).toBe(before);
  });
});

describe("a key's value page", () => {
  it('shows the screenshots of the key, with its region outlined over the image and said in words, to a translator', async () => {
    const shot = await stored('Welcome screen', [keys.welcome!, keys['menu.settings']!]);
    // The region through the page's own form.
    const res = await owner.post(`${shotPage(shot.id)}/keys/${keys.welcome}`, { do: 'region', x: '24', y: '80', width: '200', height: '40' });
    expect(res.status).toBe(303);
    expect((await owner.follow(res)).text).toContain('Saved where welcome is: at 24, 80, 200 × 40 px.');

    const page = await translator.get(valuePage(keys.welcome!));
    expect(page.status).toBe(200);
    const section = /<section id="screenshots"[^]*?<\/section>/.exec(page.text)![0];
    expect(section).toContain('<h3 id="screenshots-title">Screenshots</h3>');
    expect(section).toContain(`<img src="${imagePath(shot.id)}" alt="Screenshot: Welcome screen" width="390" height="260"`);
    // The outline: an SVG in the image's pixels, stretched with it (no style attribute: the CSP has none).
    expect(section).toContain('viewBox="0 0 390 260" preserveAspectRatio="none" aria-hidden="true"');
    expect(section).toContain('<rect class="box" x="24" y="80" width="200" height="40">');
    expect(section).not.toContain('style=');
    expect(decode(section.replace(/<[^>]+>/g, ''))).toContain('welcome is outlined, at 24, 80, 200 × 40 px of 390 × 260.');
    expect(section).toContain(`<a href="${imagePath(shot.id)}">Full image`);
    // Only this key's region: menu.settings has none, and its page says so.
    const other = await translator.get(valuePage(keys['menu.settings']!, 'en'));
    const otherSection = /<section id="screenshots"[^]*?<\/section>/.exec(other.text)![0];
    expect(otherSection).not.toContain('<svg');
    expect(decode(otherSection.replace(/<[^>]+>/g, ''))).toContain('menu.settings is on this screen (where has not been marked).');
  });

  it('shows no section for a key no screenshot shows', async () => {
    const id = ((await (await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'lonely' })).json()) as { id: string }).id;
    keys.lonely = id;
    const page = await translator.get(valuePage(id));
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('id="screenshots"');
  });

  it('the editor counts the screenshots beside a key, linking to its value page', async () => {
    const editor = await translator.get(`/portal/projects/${p.projectId}?lang=en&lang=de`);
    const n = (await sql()<{ n: number }[]>`select count(*)::int as n from screenshot_keys where key_id = ${keys.welcome!}`)[0]!.n;
    expect(editor.text).toContain(`<a href="${valuePage(keys.welcome!)}#screenshots" aria-label="${n} ${n === 1 ? 'screenshot' : 'screenshots'} of welcome">`);
    expect(editor.text).toContain('>lonely</span>');
    expect(editor.text).not.toContain(`${keys.lonely}/values/de/history#screenshots`);
  });
});

describe('the image route', () => {
  it('answers the bytes to a member, with their type, a strong ETag, private caching and nosniff; a 304 for the ETag', async () => {
    const shot = await stored('Bytes');
    const res = await t.app.request(`http://localhost${imagePath(shot.id)}`, { headers: { Cookie: `tms_session=${translator.cookies.get('tms_session')}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    const again = await t.app.request(`http://localhost${imagePath(shot.id)}`, { headers: { Cookie: `tms_session=${translator.cookies.get('tms_session')}`, 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(await again.text()).toBe('');
  });

  it("is a 404 for another account's user, for another project's screenshot, for an unknown id and for no id; a 401 signed out", async () => {
    const shot = await stored('Private');
    expect((await stranger.get(imagePath(shot.id))).status).toBe(404);
    expect((await stranger.get(shotPage(shot.id))).status).toBe(404);
    // The stranger's own project, naming this project's screenshot: no such screenshot there.
    const theirs = await t.newProject('team');
    const theirOwner = await signedInMember(t, theirs.accountId, 'owner');
    expect((await theirOwner.get(imagePath(shot.id, theirs))).status).toBe(404);
    expect((await owner.get(imagePath('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await owner.get(imagePath('not-an-id'))).status).toBe(404);
    const signedOut = await t.app.request(`http://localhost${imagePath(shot.id)}`);
    expect(signedOut.status).toBe(401);
  });
});

describe("a screenshot's page", () => {
  it('links keys by name (one already linked is said so), refusing an unknown one with the text kept and nothing written', async () => {
    const shot = await stored('Linking', [keys.forgot!]);
    const before = await state();
    const refused = await owner.post(`${shotPage(shot.id)}/keys`, { keys: 'auth.sign_in\nnope' });
    expect(refused.status).toBe(422);
    expect(problemAt(refused.text, 'link', 'keys')).toBe('Not a key of this project (or in the trash): nope');
    expect(/<form[^>]*aria-label="Link keys"[^]*?<textarea[^>]*>([^<]*)<\/textarea>/.exec(refused.text)![1]).toBe('auth.sign_in\nnope');
    expect(await state()).toBe(before);

    const ok = await owner.post(`${shotPage(shot.id)}/keys`, { keys: 'auth.sign_in\nforgot' });
    expect(ok.status).toBe(303);
    const page = await owner.follow(ok);
    expect(page.text).toContain('Linked auth.sign_in. Already linked: forgot.');
    expect(page.text).toContain('Keys it shows (2)');
    const [event] = await sql()<{ after: { linked: string[] } }[]>`select after from domain_events where entity_id = ${shot.id} and type = 'screenshot.updated' order by id desc limit 1`;
    expect(event!.after.linked).toEqual([keys['auth.sign_in']]);
  });

  it('refuses a region outside the image at its field (422), the numbers kept, nothing written; numbers that are none too', async () => {
    const shot = await stored('Regions', [keys.welcome!]);
    const action = `${shotPage(shot.id)}/keys/${keys.welcome}`;
    const before = await state();
    const outside = await owner.post(action, { do: 'region', x: '300', y: '10', width: '200', height: '20' });
    expect(outside.status).toBe(422);
    const form = `key-${keys.welcome}`;
    expect(problemAt(outside.text, form, 'width')).toContain("the region runs past the image's right edge: x + width must be at most 390");
    expect(formFields(outside.text, action)).toMatchObject({ x: '300', y: '10', width: '200', height: '20' });
    expect(await state()).toBe(before);

    const typo = await owner.post(action, { do: 'region', x: '10', y: 'ten', width: '-5', height: '20' });
    expect(typo.status).toBe(422);
    expect(problemAt(typo.text, form, 'y')).toBe('y must be a whole number of pixels, 0 or more');
    expect(problemAt(typo.text, form, 'width')).toBe('width must be a whole number of pixels, 1 or more');
    expect(await state()).toBe(before);
  });

  it('clears a region, unlinks a key, renames (a name sent as shown saves nothing), and says each in Activity', async () => {
    const shot = await stored('Editing', [keys.welcome!, keys.forgot!]);
    const base = shotPage(shot.id);
    await owner.post(`${base}/keys/${keys.welcome}`, { do: 'region', x: '0', y: '0', width: '390', height: '260' });
    const cleared = await owner.follow(await owner.post(`${base}/keys/${keys.welcome}`, { do: 'clear' }));
    expect(cleared.text).toContain('Cleared the region of welcome');
    expect((await sql()<{ x: number | null }[]>`select region_x as x from screenshot_keys where screenshot_id = ${shot.id} and key_id = ${keys.welcome!}`)[0]!.x).toBeNull();
    const unlinked = await owner.follow(await owner.post(`${base}/keys/${keys.forgot}`, { do: 'unlink' }));
    expect(unlinked.text).toContain('Unlinked forgot.');
    expect(unlinked.text).toContain('Keys it shows (1)');
    // A form of a key unlinked meanwhile (another tab): a 404, not a link made again unseen.
    expect((await owner.post(`${base}/keys/${keys.forgot}`, { do: 'region', x: '1', y: '1', width: '1', height: '1' })).status).toBe(404);

    const page = await owner.get(base);
    const same = await owner.follow(await owner.post(base, formFields(page.text, base)));
    expect(same.text).toContain('Nothing to save: the name of Editing is as it was.');
    const renamed = await owner.follow(await owner.post(base, { name_was: 'Editing', name: 'Editing <i>done</i>' }));
    expect(renamed.text).toContain('Renamed the screenshot to Editing &lt;i&gt;done&lt;/i&gt;.');
    const blank = await owner.post(base, { name_was: 'Editing <i>done</i>', name: '   ' });
    expect(blank.status).toBe(422);
    expect(problemAt(blank.text, 'rename', 'name')).toMatch(/name/);

    const activity = decode((await owner.get(`/portal/projects/${p.projectId}/activity`)).text.replace(/<[^>]+>/g, ''));
    expect(activity).toContain('changed the screenshot Editing <i>done</i>');
    expect(activity).toContain('renamed from Editing');
    expect(activity).toContain('unlinked 1 key');
    expect(activity).toContain('moved 1 region');
  });

  it('deletes after its confirm, back to the tab saying so: its row, links and image gone', async () => {
    const shot = await stored('Doomed', [keys.welcome!]);
    const page = await owner.get(shotPage(shot.id));
    expect(page.text).toContain(`data-confirm="Delete the screenshot Doomed? Its image and its links to keys go with it; this cannot be undone."`);
    // A translator may not.
    expect((await translator.post(`${shotPage(shot.id)}/delete`)).status).toBe(403);
    const res = await owner.post(`${shotPage(shot.id)}/delete`);
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`^${tab()}\\?outcome=`));
    expect((await owner.follow(res)).text).toContain('Deleted the screenshot Doomed.');
    expect(await sql()`select 1 from screenshots where id = ${shot.id}`).toHaveLength(0);
    expect(await sql()`select 1 from screenshot_keys where screenshot_id = ${shot.id}`).toHaveLength(0);
    expect((await t.runtime.deps.objects.get(`projects/${p.projectId}/screenshots/${shot.id}`)).kind).not.toBe('found');
    expect((await owner.get(shotPage(shot.id))).status).toBe(404);
    expect((await owner.post(`${shotPage(shot.id)}/delete`)).status).toBe(404);
  });
});

describe('the tab', () => {
  it('lists the screenshots 100 a page (Next page by cursor), each with its thumbnail, size and keys; or those of one key', async () => {
    const q = await t.newProject('team');
    await t.call(q.apiKey, 'POST', '/v1/languages', { code: 'en' });
    const key = ((await (await t.call(q.apiKey, 'POST', '/v1/keys', { key: 'home.title' })).json()) as { id: string }).id;
    for (let i = 0; i < 101; i++) {
      await uploadScreenshot(t.runtime.deps, { projectId: q.projectId, actor: { type: 'api_key', id: q.apiKeyId }, body: i % 2 ? PNG : WEBP, name: `Screen ${i}`, keyIds: i === 100 || i === 3 ? [key] : [] });
    }
    const reader = await signedInMember(t, q.accountId, 'translator');
    const first = await reader.get(tab(q));
    expect(first.status).toBe(200);
    const cards = (html: string) => [...html.matchAll(/<li class="card shot-card" data-screenshot="[^"]+">[^]*?<strong class="shot-name">([^<]+)<\/strong>/g)].map((m) => m[1]);
    expect(cards(first.text)).toHaveLength(100);
    expect(cards(first.text)[0]).toBe('Screen 0');
    expect(first.text).toContain('101 screenshots');
    expect(first.text).toContain('120 × 80 px · WebP · 796 bytes');
    const next = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll('&amp;', '&');
    const second = await reader.get(next);
    expect(cards(second.text)).toEqual(['Screen 100']);
    expect(second.text).toContain('1 key: <span class="mono">home.title</span>');
    expect(second.text).toContain('>First page</a>');
    // A page link that is none: the first page, said so.
    const bad = await reader.get(`${tab(q)}?cursor=abc`);
    expect(bad.status).toBe(200);
    expect(bad.text).toContain('That page link is not valid any more');
    // One key's screenshots.
    const ofKey = await reader.get(`${tab(q)}?key=${key}`);
    expect(cards(ofKey.text)).toEqual(['Screen 3', 'Screen 100']);
    expect(decode(ofKey.text.replace(/<[^>]+>/g, ''))).toContain('2 screenshots show home.title');
  });
});
