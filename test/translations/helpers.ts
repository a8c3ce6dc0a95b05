// Fixtures shared by the translation and manifest tests: a project with languages, keys and values
// created through the API, and small request helpers.
import { expect } from 'vitest';
import type { Plan } from '../../core/accounts/plans.ts';
import type { TestApp, TestProject } from '../support/test-app.ts';

// Response bodies are checked field by field with expect(); `any` keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const body = async (res: Response): Promise<any> => res.json();

export type Status = 'draft' | 'review' | 'approved';

export type Project = TestProject & {
  get(path: string): Promise<Response>;
  /** POST /v1/keys, expecting 201; returns the key id. */
  key(key: string, group?: string): Promise<string>;
  /** PUT a value, expecting 200. */
  put(keyId: string, language: string, value: string, status?: Status): Promise<void>;
  language(code: string): Promise<void>;
};

export async function project(t: TestApp, languages: string[] = ['de'], plan: Plan = 'team'): Promise<Project> {
  const p = await t.newProject(plan);
  const self: Project = {
    ...p,
    get: (path) => t.call(p.apiKey, 'GET', path),
    async key(key, group) {
      const res = await t.call(p.apiKey, 'POST', '/v1/keys', group === undefined ? { key } : { key, group_name: group });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await body(res)).id;
    },
    async put(keyId, language, value, status) {
      const res = await t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/${language}`, status ? { value, status } : { value });
      expect(res.status, await res.clone().text()).toBe(200);
    },
    async language(code) {
      const res = await t.call(p.apiKey, 'POST', '/v1/languages', { code });
      expect(res.status, await res.clone().text()).toBe(201);
    },
  };
  for (const code of languages) await self.language(code);
  return self;
}

export async function expectNotFound(res: Response): Promise<string> {
  expect(res.status).toBe(404);
  const { detail } = await body(res);
  expect(typeof detail).toBe('string');
  return detail as string;
}
