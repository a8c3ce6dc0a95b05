// Portal forms sent as multipart/form-data whose text fields are not UTF-8. The portal's pages are
// UTF-8, so browsers send their fields so; bytes that do not decode are a 422 (a page, or the API's
// envelope for the editor's script), as urlencoded forms are (functions/portal/form-body.ts), and
// never text stored with U+FFFD in it. File parts are the import's to judge, not the form's.
// The API's POST /v1/import takes the raw file, never multipart: nothing of its own to check here.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { hashPassword } from '../../core/users/password.ts';
import { createSession } from '../../core/users/sessions.ts';

const t = useTestApp();
let p: TestProject;
let keyId: string;
let session: { cookie: string; csrf: string };

const BOUNDARY = 'utf8-check-boundary';
/** Latin-1 "Grüße" (ü = 0xfc, ß = 0xdf), a lone continuation byte, and a truncated sequence. */
const NOT_UTF8 = [Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65]), Buffer.from([0x61, 0x80, 0x62]), Buffer.from([0x61, 0xe2, 0x82])];

type Part = { name: string | Buffer; value: Buffer | string; filename?: string };

function multipart(parts: Part[]): Buffer {
  const out: Buffer[] = [];
  for (const { name, value, filename } of parts) {
    const file = filename === undefined ? '' : `; filename="${filename}"\r\nContent-Type: application/octet-stream`;
    out.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="`), Buffer.from(name), Buffer.from(`"${file}\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n'));
  }
  out.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(out);
}

async function post(path: string, parts: Part[], headers: Record<string, string> = {}) {
  const res = await t.app.request(`http://localhost${path}`, {
    method: 'POST',
    headers: { Cookie: session.cookie, Origin: 'http://localhost', 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body: multipart([{ name: '_csrf', value: session.csrf }, ...parts]),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** What a refused form must leave as it was: the project's keys, values and the account's projects. */
async function state() {
  const keys = await (await t.call(p.apiKey, 'GET', '/v1/keys')).json();
  const values = await (await t.call(p.apiKey, 'GET', '/v1/translations/de?status=all')).json();
  const projects = await t.runtime.deps.sql`select id, name from projects where account_id = ${p.accountId} order by id`;
  return JSON.stringify({ keys, values, projects });
}

beforeAll(async () => {
  p = await t.newProject('team');
  expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
  const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'home.title', group_name: 'home' });
  keyId = ((await created.json()) as { id: string }).id;
  expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/de`, { value: 'Hallo' })).status).toBe(200);
  const [user] = await t.runtime.deps.sql<{ id: string }[]>`
    insert into users (email, password_hash) values ('owner-utf8@example.com', ${await hashPassword('not used here')}) returning id`;
  await t.runtime.deps.sql`insert into memberships (user_id, account_id, role) values (${user!.id}, ${p.accountId}, 'owner')`;
  const s = await createSession(t.runtime.deps, user!.id);
  session = { cookie: `tms_session=${s.token}`, csrf: s.csrf };
});

/** Each form with a text field it stores, its other fields valid. */
const forms = () => [
  { form: 'new project', path: `/portal/accounts/${p.accountId}/projects`, field: 'name', rest: [] as Part[] },
  { form: 'new key', path: `/portal/projects/${p.projectId}/keys`, field: 'group_name', rest: [{ name: 'key', value: 'home.new' }] },
  { form: 'key edit', path: `/portal/projects/${p.projectId}/keys/${keyId}`, field: 'description', rest: [{ name: 'group_name', value: 'home' }] },
  { form: 'value', path: `/portal/projects/${p.projectId}/keys/${keyId}/values/de`, field: 'value', rest: [{ name: 'status', value: 'draft' }] },
  { form: 'api key', path: `/portal/projects/${p.projectId}/api-keys`, field: 'name', rest: [{ name: 'kind', value: 'live' }] },
  // The import form is multipart in the page itself: its group field names the created keys' group.
  {
    form: 'import',
    path: `/portal/projects/${p.projectId}/import`,
    field: 'group',
    rest: [
      { name: 'language', value: 'de' },
      { name: 'format', value: 'json' },
      { name: 'file', value: '{"fresh": "Neu"}', filename: 'de.json' },
    ],
  },
];

describe('multipart portal forms with text fields that are not UTF-8', () => {
  it('are a 422 page, each form and each kind of broken byte, and nothing is stored', async () => {
    for (const { form, path, field, rest } of forms()) {
      for (const [i, bytes] of NOT_UTF8.entries()) {
        const before = await state();
        const res = await post(path, [...rest, { name: field, value: bytes }]);
        expect(res.status, `${form} #${i}: ${res.text.slice(0, 200)}`).toBe(422);
        expect(res.type, form).toMatch(/^text\/html/);
        expect(res.text, form).toMatch(/not UTF-8/);
        expect(await state(), `${form} #${i} stored something`).toBe(before);
      }
    }
  });

  it('a field name that is not UTF-8 is refused too; the editor\'s script gets the envelope', async () => {
    const before = await state();
    const path = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const badName = await post(path, [{ name: 'value', value: 'Hallo!' }, { name: Buffer.from([0x76, 0xff]), value: 'x' }]);
    expect(badName.status).toBe(422);
    const json = await post(path, [{ name: 'value', value: NOT_UTF8[0]! }, { name: 'status', value: 'draft' }], { Accept: 'application/json' });
    expect(json.status).toBe(422);
    expect(json.type).toMatch(/^application\/json/);
    expect(JSON.parse(json.text)).toMatchObject({ detail: [{ loc: ['body'], type: 'unicode_invalid' }] });
    expect(await state()).toBe(before);
  });

  it('UTF-8 text fields are stored as sent, and a file that is not UTF-8 is left to the import to judge', async () => {
    const saved = await post(`/portal/projects/${p.projectId}/keys/${keyId}/values/de`, [{ name: 'value', value: 'Grüße, 世界 👋' }, { name: 'status', value: 'draft' }]);
    expect(saved.status).toBeLessThan(400);
    const value = (await (await t.call(p.apiKey, 'GET', `/v1/keys/${keyId}/translations/de`)).json()) as { value: string };
    expect(value.value).toBe('Grüße, 世界 👋');
    // A Latin-1 file: the form is readable, the import refuses the file itself (its own page and message).
    const file = await post(`/portal/projects/${p.projectId}/import`, [
      { name: 'language', value: 'de' },
      { name: 'format', value: 'json' },
      { name: 'group', value: 'Grüße' },
      { name: 'file', value: Buffer.from('{"fresh": "Gr\xfc\xdfe"}', 'latin1'), filename: 'de.json' },
    ]);
    expect(file.status).toBe(422);
    expect(file.text).not.toMatch(/The form is not UTF-8/);
    const dryRun = await post(`/portal/projects/${p.projectId}/import`, [
      { name: 'language', value: 'de' },
      { name: 'format', value: 'json' },
      { name: 'group', value: 'Grüße' },
      { name: 'file', value: '{"fresh": "Neu"}', filename: 'dé.json' },
    ]);
    expect(dryRun.status, dryRun.text.slice(0, 300)).toBe(200);
  });
});
