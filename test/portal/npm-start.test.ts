// A newcomer's first minute, as a real `npm start` child process: the printed portal address leads
// to setup, which takes the printed admin token and signs the first owner in.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { killLocalServers, startLocalServer } from '../local/local-server-process.ts';

const dirs: string[] = [];
afterAll(async () => {
  killLocalServers();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

it('prints the portal address; its first visit is the setup page, which creates the owner', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tms-portal-start-'));
  dirs.push(dataDir);
  const server = await startLocalServer({ TMS_DATA_DIR: dataDir, PORT: '0' });
  await server.waitForOutput(/Portal: http:\/\/\S+\/portal\n/);
  const portal = /Portal: (http:\/\/\S+\/portal)\n/.exec(server.output())![1]!;
  expect(portal).toBe(`${server.url}/portal`);

  const first = await fetch(`${portal}/`, { redirect: 'manual' });
  expect(first.status).toBe(308);
  const home = await fetch(portal, { redirect: 'manual' });
  expect([home.status, home.headers.get('location')]).toEqual([303, '/portal/setup']);
  const setup = await fetch(`${portal}/setup`);
  const html = await setup.text();
  expect(setup.status).toBe(200);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
  const cookie = setup.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

  const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
  const done = await fetch(`${portal}/setup`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: new URLSearchParams({ _csrf: csrf, admin_token: token, email: 'me@example.com', password: 'a long passphrase', account_name: 'Me', plan: 'business' }).toString(),
  });
  expect([done.status, done.headers.get('location')]).toEqual([303, '/portal']);
  const session = done.headers.getSetCookie().find((c) => c.startsWith('tms_session='))!.split(';')[0]!;
  const projects = await fetch(portal, { headers: { Cookie: session } });
  expect(projects.status).toBe(200);
  expect(await projects.text()).toContain('Create project');
  await server.stop();
}, 120_000);
