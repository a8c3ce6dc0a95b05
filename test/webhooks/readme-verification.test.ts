// The README's webhook receiver, run as written (only its port changed): it accepts what tms signs
// and refuses a tampered body, so the example a project copies is one that works.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { newMessageId, newSigningSecret, signedHeaders } from '../../core/webhooks/signature.ts';
import { ROOT, freePort } from '../local/local-server-process.ts';

let child: ChildProcess | undefined;
const dir = join(ROOT, 'scratch', `readme-webhook-${process.pid}`);

afterAll(async () => {
  child?.kill();
  await rm(dir, { recursive: true, force: true });
});

it('the README verification example accepts a tms delivery and refuses a tampered one', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Webhooks\n'));
  const code = /```js\n([\s\S]*?)```/.exec(section ?? '')?.[1];
  expect(code, 'a js block in README "## Webhooks"').toContain("from 'standardwebhooks'");
  const port = await freePort();
  // Inside the repository, so that the import resolves to this checkout's node_modules.
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'receiver.mjs');
  await writeFile(file, code!.replace('.listen(8080)', `.listen(${port}, () => console.log('ready'))`));
  const secret = newSigningSecret();
  child = spawn(process.execPath, [file], { env: { ...process.env, TMS_WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`receiver did not start: ${out}`)), 10_000);
    child!.stdout!.on('data', () => out.includes('ready') && (clearTimeout(timer), resolve()));
  });

  const body = JSON.stringify({ type: 'cache.rebuilt', timestamp: new Date().toISOString(), data: { build_id: 'b-1' } });
  const post = (payload: string, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}/hooks/tms`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });
  const headers = signedHeaders(secret, newMessageId(), Math.floor(Date.now() / 1000), body);
  expect((await post(body, headers)).status).toBe(204);
  expect((await post(body.replace('b-1', 'b-2'), headers)).status).toBe(401);
  expect((await post(body, signedHeaders(newSigningSecret(), newMessageId(), Math.floor(Date.now() / 1000), body))).status).toBe(401);
  await new Promise((r) => setTimeout(r, 100));
  expect(out).toContain('new build b-1');
});
