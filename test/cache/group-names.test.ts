// Group names as the built cache stores them (core/cache/layout.ts): every valid group name, whatever
// its spelling or length, is served by the cached group and key routes and the versioned URLs after a
// rebuild, as it is live. A group file is named by base64url of the name, or by a hash of it when that
// would be too long for a file name; every name that could be built before keeps its file name.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { rebuild, seed } from '../support/cache-helpers.ts';
import { buildGroupPath } from '../../core/cache/build-urls.ts';
import { BuildIndex, groupKey } from '../../core/cache/layout.ts';

const t = useTestApp();

/** Every cached route a group is served by: the mutable group and key paths and the group's build URL. */
async function expectServed(p: TestProject, group: string, key: string, value: string) {
  const segment = encodeURIComponent(group);
  const language = await t.call(p.apiKey, 'GET', '/v1/cached/translations/de');
  expect((await language.json()).translations).toMatchObject({ [key]: value });
  const groupRes = await t.call(p.apiKey, 'GET', `/v1/cached/translations/de/${segment}`);
  expect(groupRes.status, await groupRes.clone().text()).toBe(200);
  expect((await groupRes.json()).translations).toEqual({ [key]: value });
  const keyRes = await t.call(p.apiKey, 'GET', `/v1/cached/translations/de/${segment}/${encodeURIComponent(key)}`);
  expect(keyRes.status, await keyRes.clone().text()).toBe(200);
  expect(await keyRes.json()).toEqual({ value });
  const manifest = await (await t.call(p.apiKey, 'GET', '/v1/cached/manifest')).json();
  const versioned = await t.call(p.apiKey, 'GET', buildGroupPath(manifest.build_id, 'de', group));
  expect(versioned.status, await versioned.clone().text()).toBe(200);
  expect((await versioned.json()).translations).toEqual({ [key]: value });
}

describe('group names that are also Object.prototype property names', () => {
  for (const group of ['prototype', 'constructor', '__proto__']) {
    it(`a group named '${group}' is served on every cached group and key route after a rebuild, as live`, async () => {
      const p = await t.newProject('team');
      await seed(t, p, { [`${group}.title`]: { de: ['Hallo', 'approved'] }, 'home.title': { de: ['Start', 'approved'] } });
      expect((await t.call(p.apiKey, 'GET', `/v1/translations/de/${group}`)).status).toBe(200);
      await rebuild(t, p);
      await expectServed(p, group, `${group}.title`, 'Hallo');
      // The group beside it too.
      await expectServed(p, 'home', 'home.title', 'Start');
    });
  }

  it("the build's index keeps such groups (and parses into objects no key can reach Object.prototype through)", () => {
    const entry = { etag: '"e"', etags: { identity: '"e"', gzip: '"e-gz"', br: '"e-br"' }, bytes: 1 };
    const text = `{"build_id":"b","project_id":"p","built_at":"t","manifest":{"etag":"\\"m\\""},"languages":{"de":{"file":${JSON.stringify(entry)},"groups":{"__proto__":${JSON.stringify(entry)},"constructor":${JSON.stringify(entry)},"prototype":${JSON.stringify(entry)},"home":${JSON.stringify(entry)}}}}}`;
    const index = v.parse(BuildIndex, JSON.parse(text));
    const groups = index.languages.de!.groups;
    expect(Object.keys(groups).sort()).toEqual(['__proto__', 'constructor', 'home', 'prototype']);
    expect(Object.getPrototypeOf(groups)).toBeNull();
    expect(JSON.parse(JSON.stringify(index)).languages.de.groups.__proto__).toEqual(entry);
    expect(Object.hasOwn(index.languages, 'constructor')).toBe(false);
    // Entries are still checked.
    expect(() => v.parse(BuildIndex, JSON.parse(text.replace('"bytes":1', '"bytes":"1"')))).toThrow();
  });
});

describe('long group names', () => {
  // Named 'g' + base64url(UTF-8 name), a group file's name passed the filesystem's 255 bytes from
  // 185 bytes of name, and every rebuild of the project failed.
  const cases: [string, string][] = [
    ['200 ASCII letters', 'g'.repeat(200)],
    ['70 CJK letters', '翻'.repeat(70)],
    ['200 letters of 4 UTF-8 bytes', '𝔤'.repeat(200)],
  ];
  for (const [label, group] of cases) {
    it(`a project with a valid group name of ${label} rebuilds, and the group is served`, async () => {
      const p = await t.newProject('team');
      await seed(t, p, { [`${group}.title`]: { de: ['Hallo', 'approved'] } });
      expect((await t.call(p.apiKey, 'GET', `/v1/translations/de/${encodeURIComponent(group)}`)).status).toBe(200);
      await rebuild(t, p);
      const status = await (await t.call(p.apiKey, 'GET', '/v1/cache/status')).json();
      expect(status, JSON.stringify(status)).toMatchObject({ ready: true, build_state: 'idle', last_error: null });
      await expectServed(p, group, `${group}.title`, 'Hallo');
    });
  }

  it('group files keep their base64url names up to 184 bytes of name (as builds already written have them), and are hashed beyond, within 255 bytes', () => {
    const file = (g: string) => groupKey('p', 'b', 'de', g, 'br', 'explain').split('/').at(-1)!;
    expect(file('home')).toBe(`g${Buffer.from('home').toString('base64url')}.json.br`);
    expect(file('__proto__')).toBe(`g${Buffer.from('__proto__').toString('base64url')}.json.br`);
    const longest = 'g'.repeat(184);
    expect(file(longest)).toBe(`g${Buffer.from(longest).toString('base64url')}.json.br`);
    const names = ['g'.repeat(185), 'g'.repeat(200), '𝔤'.repeat(200), '翻'.repeat(70)].map(file);
    for (const name of [...names, file(longest)]) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(names.every((n) => /^h[\w-]{43}\.json\.br$/.test(n))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });
});
