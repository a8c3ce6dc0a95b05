// What the task tests share: a JSON answer that must be a success, and a project with languages and
// keys, each key with an approved English source text.
import type { TestApp, TestProject } from '../../support/test-app.ts';

/** The body of a 2xx; anything else fails the test with its status and body. */
export async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

export type TaskTestProject = TestProject & { keys: Record<string, string> };

/** A team-plan project with `languages`, and a key per name (group `main` unless `groupOf` says). */
export async function taskProject(
  t: TestApp,
  { names, languages = ['en', 'de', 'fr'], groupOf = () => 'main' }: { names: string[]; languages?: string[]; groupOf?: (name: string) => string },
): Promise<TaskTestProject> {
  const p = await t.newProject('team');
  for (const code of languages) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
  const keys: Record<string, string> = {};
  for (const name of names) {
    keys[name] = (await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, group_name: groupOf(name) }))).id;
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${keys[name]}/translations/en`, { value: `Source ${name}`, status: 'approved' }));
  }
  return { ...p, keys };
}
