// A repository whose files a macOS tool wrote in NFD (`café` as e + U+0301), pushed into a project
// whose keys were typed in NFC: the server stores and reads names in NFC (core/validation.ts), and
// `tms push --remove-unused` compares the file's keys in NFC too, so it neither duplicates the
// keys nor counts the file's own keys as unused. The CLI runs as a child process over HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTms, writeFiles } from './support/run-tms.ts';
import { serveTestApp, type ServedApp } from './support/served-app.ts';

let app: ServedApp;
let dir: string;

beforeAll(async () => {
  app = await serveTestApp();
  dir = await mkdtemp(join(tmpdir(), 'tms-nfd-'));
});
afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('tms push of files written in NFD', () => {
  it('updates the NFC keys the files name and removes only the keys they dropped', async () => {
    const p = await app.t.newProject('team');
    expect((await app.t.call(p.apiKey, 'POST', '/v1/languages', { code: 'en' })).status).toBe(201);
    for (const key of ['menu.café', 'menu.old']) {
      expect((await app.t.call(p.apiKey, 'POST', '/v1/keys', { key, group_name: 'menu' })).status).toBe(201);
    }
    await writeFiles(dir, {
      'locales/en.json': JSON.stringify({ ['menu.café'.normalize('NFD')]: 'Coffee' }),
      'tms.config.json': JSON.stringify({ server: app.base, sourceLanguage: 'en', files: [{ path: 'locales/{language}.json', format: 'json' }] }),
    });

    const dry = await runTms(['push', '--remove-unused', '--dry-run'], { cwd: dir, apiKey: p.apiKey });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^would remove 1 unused key: menu\.old$/m);

    const pushed = await runTms(['push', '--remove-unused', '--json'], { cwd: dir, apiKey: p.apiKey });
    expect(pushed.code, pushed.stderr).toBe(0);
    const answer = JSON.parse(pushed.stdout);
    expect(answer.removed.map((k: { key: string }) => k.key)).toEqual(['menu.old']);
    const keys = (await (await app.t.call(p.apiKey, 'GET', '/v1/keys')).json()) as { keys: { key: string }[] };
    expect(keys.keys.map((k) => k.key)).toEqual(['menu.café']);
    const value = await app.t.call(p.apiKey, 'GET', `/v1/translations/en/menu/${encodeURIComponent('menu.café')}?status=all`);
    expect(((await value.json()) as { value: string }).value).toBe('Coffee');
  });
});
