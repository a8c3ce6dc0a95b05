// A group rename or a key's move to a name that a key of the group cannot be indexed with (a
// 500-character key and a 200-character name, both of 4-byte characters: valid by section 2, but
// past the (project, group, key) btree entry) is a 422 located at the field the request sent
// (new_name, group_name), not at body.key, which these bodies do not have; nothing is changed.
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

describe('PATCH /v1/groups/{group_name} to a name too long together with a key of the group', () => {
  const KEY = chars(500, 0x20000, 0xa6d0, 1);
  const GROUP = chars(200, 0x20000, 0xa6d0, 2);

  it('422 located at body.new_name (the field sent), nothing renamed', async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/keys', { key: KEY, group_name: 'g' })).status).toBe(201);
    const res = await t.call(p.apiKey, 'PATCH', '/v1/groups/g', { new_name: GROUP });
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    expect(detail.map((d) => d.loc)).toEqual([['body', 'new_name']]);
    expect((await (await t.call(p.apiKey, 'GET', '/v1/groups')).json()).groups).toEqual(['g']);
  });

  it('PATCH /v1/keys/{key_id} moving such a key into such a group: 422 located at body.group_name', async () => {
    const p = await t.newProject('team');
    const created = await t.call(p.apiKey, 'POST', '/v1/keys', { key: KEY });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const res = await t.call(p.apiKey, 'PATCH', `/v1/keys/${id}`, { group_name: GROUP });
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: unknown[] }[] };
    expect(detail.map((d) => d.loc)).toEqual([['body', 'group_name']]);
  });
});
