// Helpers for tests of the cache pipeline on the local server's queue (its worker builds in process).
import type { TestApp, TestProject } from './test-app.ts';

/** POST /v1/cache/rebuild and wait for this process's worker to build it. */
export async function rebuild(t: TestApp, p: TestProject): Promise<void> {
  const res = await t.call(p.apiKey, 'POST', '/v1/cache/rebuild');
  if (res.status !== 202) throw new Error(`rebuild: ${res.status} ${await res.text()}`);
  await t.runtime.rebuilds!.idle();
}

/** Creates keys (group.name) with values per language: { 'home.title': { de: ['Hallo', 'approved'] } }. */
export async function seed(
  t: TestApp,
  p: TestProject,
  data: Record<string, Record<string, [string, 'draft' | 'review' | 'approved']>>,
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const languages = new Set(Object.values(data).flatMap((v) => Object.keys(v)));
  const registered = (await (await t.call(p.apiKey, 'GET', '/v1/languages')).json()).languages.map((l: { code: string }) => l.code);
  for (const code of languages) if (!registered.includes(code)) await t.call(p.apiKey, 'POST', '/v1/languages', { code });
  for (const [key, values] of Object.entries(data)) {
    const group_name = key.includes('.') ? key.split('.')[0] : 'Default';
    const res = await t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name });
    if (res.status !== 201) throw new Error(`seed key ${key}: ${res.status} ${await res.text()}`);
    ids[key] = (await res.json()).id;
    for (const [code, [value, status]] of Object.entries(values)) {
      const put = await t.call(p.apiKey, 'PUT', `/v1/keys/${ids[key]}/translations/${code}`, { value, status });
      if (put.status !== 200) throw new Error(`seed value ${key}/${code}: ${put.status} ${await put.text()}`);
    }
  }
  return ids;
}
