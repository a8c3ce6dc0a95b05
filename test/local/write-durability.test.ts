// A write the service answered 2xx is kept through a crash, and a write it did not finish leaves
// nothing behind: `npm start` as a child process under a stream of writes, killed with SIGKILL,
// restarted on the same data dir (embedded PGlite by default, a real Postgres database of its own
// when DATABASE_URL is set). PGlite writes its WAL through the filesystem before a commit returns,
// so a killed process loses nothing it acknowledged; these tests hold it to that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from './local-server-process.ts';
import { call, cleanUpPlaces, newProject, place, type Project } from './durable-place.ts';

afterAll(cleanUpPlaces);

/** Resolves once `check` holds, polling every 20 ms; throws after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function crash(server: LocalServer): Promise<void> {
  server.kill('SIGKILL');
  expect(await server.exited()).toBeNull();
}

describe('writes and SIGKILL', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    env = await place();
  });

  it('every key and value answered 2xx before the kill is there after the restart, as answered', async () => {
    const first = await startLocalServer(env);
    const p: Project = await newProject(first, 0);
    // name -> the value its PUT was answered 200 for ('' when only the key's creation was answered)
    const acked = new Map<string, string>();
    let stopped = false;
    const writer = async (w: number) => {
      for (let n = 0; !stopped; n++) {
        const name = `crash.w${w}.k${n}`;
        try {
          const created = await call(first, p, 'POST', '/v1/keys', { key: name, group_name: 'crash' });
          if (created.status !== 201) throw new Error(`create ${name}: ${created.status} ${await created.text()}`);
          const { id } = await created.json();
          acked.set(name, '');
          const value = `Wert ${name}`;
          const put = await call(first, p, 'PUT', `/v1/keys/${id}/translations/de`, { value, status: 'approved' });
          if (put.status !== 200) throw new Error(`put ${name}: ${put.status} ${await put.text()}`);
          await put.arrayBuffer();
          acked.set(name, value);
        } catch (error) {
          // Only the kill may end a writer: a connection refused or reset after it.
          if (!stopped) throw error;
        }
      }
    };
    const writers = Array.from({ length: 12 }, (_, w) => writer(w));
    await until(() => [...acked.values()].filter(Boolean).length >= 60, 60_000, '60 answered writes');
    // Writers stop starting new writes first; the ones in flight are cut off by the kill.
    stopped = true;
    await crash(first);
    await Promise.all(writers);

    const second = await startLocalServer(env);
    const keys = await (await call(second, p, 'GET', '/v1/keys?group=crash')).json();
    const names = new Set((keys.keys as { key: string }[]).map((k) => k.key));
    const live = await (await call(second, p, 'GET', '/v1/translations/de?status=all')).json();
    for (const [name, value] of acked) {
      expect(names.has(name), name).toBe(true);
      if (value) expect(live.translations[name], name).toEqual({ value, status: 'approved', group: 'crash' });
    }
    // Nothing beyond what was sent: at most one key per writer was written but not yet answered.
    expect(names.size - acked.size).toBeLessThanOrEqual(12);
    // The restarted service takes writes again.
    const again = await call(second, p, 'POST', '/v1/keys', { key: 'crash.after', group_name: 'crash' });
    expect(again.status).toBe(201);
    await second.stop();
  }, 180_000);

  it('an import killed before its answer is there whole or not at all', async () => {
    const first = await startLocalServer(env);
    const p: Project = await newProject(first, 0);
    const file = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`bulk${i % 20}.key${i}`, `Wert ${i}`]));
    let answered = 0;
    const sent = call(first, p, 'POST', '/v1/import/de?status=approved', JSON.stringify(file)).then(
      (res) => (answered = res.status),
      () => {},
    );
    // Killed while the import runs: 10,000 new keys take longer than this on any machine seen.
    await new Promise((resolve) => setTimeout(resolve, 150));
    await crash(first);
    await sent;

    const second = await startLocalServer(env);
    const keys = await (await call(second, p, 'GET', '/v1/keys')).json();
    const live = await (await call(second, p, 'GET', '/v1/translations/de')).json();
    if (answered === 200) {
      expect(keys.count).toBe(10_000);
      expect(live.count).toBe(10_000);
    } else {
      expect(answered).toBe(0);
      expect(keys.count).toBe(0);
      expect((await call(second, p, 'GET', '/v1/translations/de')).status).toBe(404);
    }
    // Sent again, the import completes and the live read shows all of it.
    expect((await call(second, p, 'POST', '/v1/import/de?status=approved', JSON.stringify(file))).status).toBe(200);
    const after = await (await call(second, p, 'GET', '/v1/translations/de')).json();
    expect(after.count).toBe(10_000);
    expect(after.translations['bulk7.key9987']).toBe('Wert 9987');
    await second.stop();
  }, 180_000);
});
