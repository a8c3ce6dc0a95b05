// The portal's Languages tab shows "<n> values" per language from
// valuesPerLanguage (core/languages/value-counts.ts), which counts every row of translations,
// and counted the values kept hidden for soft-deleted keys too: deleted keys are never purged, so after a
// year of cleanups the count drifts ever further from what the project serves.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';

const t = useTestApp();

describe('the Languages tab', () => {
  it("counts only live keys' values", async () => {
    const p = await t.newProject('team');
    expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code: 'de' })).status).toBe(201);
    const ids: string[] = [];
    for (const key of ['a.one', 'a.two', 'a.three']) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: 'a' });
      ids.push(((await res.json()) as { id: string }).id);
    }
    for (const id of ids) expect((await t.call(p.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'Wert', status: 'approved' })).status).toBe(200);
    // Two keys cleaned up: the project now has one key with a German value.
    for (const id of ids.slice(1)) expect((await t.call(p.apiKey, 'DELETE', `/v1/keys/${id}`)).status).toBe(204);
    const live = (await (await t.call(p.apiKey, 'GET', '/v1/translations/de')).json()) as { count: number };
    expect(live.count).toBe(1);

    const dev = await signedInMember(t, p.accountId, 'developer');
    const page = await dev.get(`/portal/projects/${p.projectId}/languages`);
    const shown = /<strong class="mono">de<\/strong> <span class="hint">(\d+) values<\/span>/.exec(page.text)?.[1];
    expect(shown).toBe('1');
  });
});
