// Names valid by section 2 are taken, whatever their script: a group name written with combining
// marks (Hindi, Tamil, Bengali vowel signs and viramas) was a 422. A 500-character key in a
// 200-character group, both of 4-byte characters, passes what Postgres can index: a 422 naming that
// limit (it was a bare 413), at the field the request sent (key, group_name, new_name). Runs on
// embedded PGlite, and on real Postgres with DATABASE_URL.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp();

/** `n` distinct-looking characters from [base, base + span), deterministic (no compression helps them). */
function chars(n: number, base: number, span: number, seed: number): string {
  let x = seed;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    s += String.fromCodePoint(base + (x % span));
  }
  return s;
}

describe('group names written with combining marks', () => {
  const NAMES = ['हिन्दी', 'தமிழ்', 'বাংলা'];

  it('POST /v1/keys with a Hindi, Tamil or Bengali group_name creates the key in that group, read live by its name', async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'hi' })).status).toBe(201);
    for (const name of NAMES) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: `${name}.title`, group_name: name });
      expect(res.status, name).toBe(201);
      const { id } = await res.json();
      expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/hi`, { value: 'शीर्षक', status: 'approved' })).status).toBe(200);
      const read = await t.call(p.apiKey, 'GET', `/v1/translations/hi/${encodeURIComponent(name)}`);
      expect(read.status, name).toBe(200);
      expect((await read.json()).translations).toEqual({ [`${name}.title`]: 'शीर्षक' });
    }
  });

  it('POST /v1/groups takes हिन्दी; a name that starts with a combining mark is still refused (422)', async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/groups', { name: 'हिन्दी' })).status).toBe(201);
    const mark = await t.call(p.apiKey, 'POST', '/v1/groups', { name: '\u093fहिन्दी' });
    expect(mark.status).toBe(422);
  });
});

describe('keys at the field limits', () => {
  // Section 2/8: key up to 500 characters, group_name up to 200 (letters). CJK Extension B ideographs
  // (U+20000..U+2A6DF, category Lo) are letters of 4 UTF-8 bytes each: both at their limits pass the
  // 2,704 bytes Postgres's btree takes for the (project, group, key) index entry. That is a 422
  // naming the limit (docs/decisions.md), never a 413 or a 5xx, and nothing is written.
  const KEY = chars(500, 0x20000, 0xa6d0, 1);
  const GROUP = chars(200, 0x20000, 0xa6d0, 2);

  it('a 500-character key and a 200-character group of 4-byte characters: 422 naming the combined limit, nothing created', async () => {
    const p = await t.newProject('team');
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key: KEY, group_name: GROUP });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toEqual([{ loc: ['body', 'key'], msg: expect.stringMatching(/too long together: at most about 2,600 bytes/), type: 'too_long' }]);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/keys')).json()).keys).toEqual([]);
    // Each alone, and both at 3 bytes a character (CJK of the basic plane), are stored.
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: KEY, group_name: 'g' })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'k', group_name: GROUP })).status).toBe(201);
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: chars(500, 0x4e00, 0x5000, 3), group_name: chars(200, 0x4e00, 0x5000, 4) })).status).toBe(201);
  });

  it('PATCH /v1/keys moving such a key into such a group: the same 422, the key left where it was', async () => {
    const p = await t.newProject('team');
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: KEY });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const res = await t.call(p.apiKey, 'PATCH', `/v1/keys/${id}`, { group_name: GROUP });
    expect(res.status).toBe(422);
    // Located at the field this body sent (body.key, the default mapping, is not in it).
    expect((await res.json()).detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([['body', 'group_name']]);
    expect((await (await t.call(p.apiKey, 'GET', `/v1/keys/${id}`)).json()).group_name).toBe('Default');
  });

  it('PATCH /v1/groups renaming a group of such a key to such a name: 422 at body.new_name, nothing renamed', async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: KEY, group_name: 'g' })).status).toBe(201);
    const res = await t.call(p.apiKey, 'PATCH', '/v1/groups/g', { new_name: GROUP });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toEqual([{ loc: ['body', 'new_name'], msg: expect.stringMatching(/too long together/), type: 'too_long' }]);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/groups')).json()).groups).toEqual(['g']);
  });
});
