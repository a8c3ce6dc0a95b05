// Every kind of write moves the live bodies, and what the memo serves equals a fresh build.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from './helpers.ts';
import { createLiveMemo } from '../../core/translations/live-memo.ts';
import { createLiveFlights } from '../../core/translations/live-flights.ts';
import { readLanguage } from '../../core/translations/read-language.ts';
import { readGroup } from '../../core/translations/read-group.ts';
import { readKey } from '../../core/translations/read-key.ts';
import { readLiveManifest } from '../../core/manifest/read-manifest.ts';

const t = useTestApp();
const dec = new TextDecoder();

async function fresh(projectId: string, path: string): Promise<string> {
  const deps = { sql: t.runtime.deps.sql, liveMemo: createLiveMemo({ maxBytes: 1 << 24 }), liveFlights: createLiveFlights() };
  const url = new URL(path, 'http://x');
  const status = (url.searchParams.get('status') ?? 'approved') as 'approved';
  const parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
  try {
    if (parts[1] === 'manifest') return `200 ${dec.decode((await readLiveManifest(deps, { projectId })).body)}`;
    const [, , language, group, key] = parts;
    const live =
      key !== undefined
        ? await readKey(deps, { projectId, language: language!, group: group!, key, status })
        : group !== undefined
          ? await readGroup(deps, { projectId, language: language!, group, status })
          : await readLanguage(deps, { projectId, language: language!, status });
    return `200 ${dec.decode(live.body)}`;
  } catch (e) {
    if ((e as { code?: string }).code === 'not_found') return '404';
    throw e;
  }
}

describe('every write kind moves the memoized live bodies', () => {
  it('key group change, bulk status, bulk delete, admin key restore, admin group restore, language add + value, import', async () => {
    const p = await project(t, ['de', 'fr']);
    const k1 = await p.key('home.title', 'home');
    const k2 = await p.key('home.body', 'home');
    await p.put(k1, 'de', 'eins', 'approved');
    await p.put(k2, 'de', 'zwei', 'approved');
    await p.put(k1, 'fr', 'un', 'review');
    const PATHS = [
      '/v1/translations/de?status=all',
      '/v1/translations/de',
      '/v1/translations/fr',
      '/v1/translations/de/home',
      '/v1/translations/de/start',
      '/v1/translations/de/home/home.title',
      '/v1/translations/de/start/home.title',
      '/v1/manifest',
    ];
    const snapshot = async () => {
      const out: string[] = [];
      for (const path of PATHS) {
        const res = await t.call(p.apiKey, 'GET', path);
        const text = res.status === 200 ? `200 ${await res.text()}` : `${res.status}`;
        expect(text, `memo vs fresh build: ${path}`).toBe(await fresh(p.projectId, path));
        out.push(text);
      }
      return out;
    };
    const steps: [string, () => Promise<Response>][] = [
      ['key group change', () => t.call(p.apiKey, 'PATCH', `/v1/keys/${k1}`, { group_name: 'start' })],
      ['bulk status', () => t.call(p.apiKey, 'POST', '/v1/keys/bulk-status', { key_ids: [k1], languages: ['fr'], status: 'approved' })],
      ['bulk delete', () => t.call(p.apiKey, 'POST', '/v1/keys/bulk-delete', { key_ids: [k1] })],
      ['admin key restore', () => t.admin('POST', `/projects/${p.projectId}/keys/${k1}/restore`)],
      ['group delete', () => t.call(p.apiKey, 'DELETE', '/v1/groups/home')],
      ['admin group restore', () => t.admin('POST', `/projects/${p.projectId}/groups/home/restore`)],
      ['language add', () => t.call(p.apiKey, 'POST', '/v1/languages', { code: 'it' })],
      ['import', () => t.call(p.apiKey, 'POST', '/v1/import/it?format=json&status=approved', { 'home.title': 'uno' })],
    ];
    let previous = await snapshot();
    for (const [name, step] of steps) {
      const res = await step();
      expect(res.status, `${name}: ${await res.clone().text()}`).toBeLessThan(300);
      const now = await snapshot();
      if (name !== 'language add' && name !== 'import') expect(now, name).not.toEqual(previous);
      previous = now;
    }
    const manifest = await body(await t.call(p.apiKey, 'GET', '/v1/manifest'));
    expect(manifest.languages.map((l: { code: string }) => l.code)).toContain('it');
  });
});
