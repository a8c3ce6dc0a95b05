// `npm start` under a process manager: a SIGTERM sent to npm (a deploy, `docker stop`, `kill`) must
// stop the service gracefully. npm passes it to the `sh -c` running the script only, and the shell
// exits without passing it on; the service sees its parent go and shuts down as on a SIGTERM
// (functions/local.ts, watchParent). Before, it kept running, orphaned, holding the port.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './local-server-process.ts';

const SERVICE_VARIABLES = ['DATABASE_URL', 'REDIS_URL', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN', 'S3_BUCKET', 'SQS_QUEUE_URL'];
const groups: number[] = [];

afterAll(() => {
  // Whatever is left of a failed run: the whole process group (npm, its shell, the service).
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
});

const until = async (check: () => boolean | Promise<boolean>, ms: number, what: () => string) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('npm start', () => {
  it('shuts the service down when npm itself gets SIGTERM, and frees the port', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tms-npm-start-'));
    try {
      const env: Record<string, string | undefined> = { ...process.env };
      for (const name of SERVICE_VARIABLES) delete env[name];
      Object.assign(env, { PORT: '0', TMS_DATA_DIR: dir, TMS_ADMIN_TOKEN: 'adm_npm_start_stop_test_token', LOG_REQUESTS: 'false' });
      // Its own process group, as a terminal or a container would give it: the signal goes to npm alone.
      const npm = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      groups.push(npm.pid!);
      let out = '';
      npm.stdout!.on('data', (d: Buffer) => (out += d));
      npm.stderr!.on('data', (d: Buffer) => (out += d));
      await until(() => /"msg":"tms listening","url":"[^"]+"/.test(out), 45_000, () => out);
      const url = /"msg":"tms listening","url":"([^"]+)"/.exec(out)![1]!;
      expect((await fetch(`${url}/health`)).status).toBe(200);

      process.kill(npm.pid!, 'SIGTERM');
      await until(() => /"msg":"shut down"/.test(out), 15_000, () => out);
      expect(out).toContain('"signal":"parent exited (npm start stopped)"');
      await until(
        () => fetch(`${url}/health`).then(() => false, () => true),
        5_000,
        () => `still answering at ${url}`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
