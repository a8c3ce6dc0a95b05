// The embedded database's disk guard (core/db/disk-guard.ts) on a real database, the disk's free
// space given by the test: below the floor every write is refused by Postgres before it writes
// anything, reads go on, /health says degraded; writes come back only at a quarter above the floor.
// The guard's SET holds for one session, as on the embedded database's single connection: the
// pool here has one connection on PGlite and on PostgreSQL alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../core/db/client.ts';
import { guardDiskSpace, type DiskGuard } from '../../core/db/disk-guard.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../core/db/embedded.ts';
import { READ_ONLY_MESSAGE, toDomainError } from '../../core/db/errors.ts';
import { AppError } from '../../core/errors.ts';
import { checkHealth } from '../../core/health/check-health.ts';
import { createMemoryLogger } from '../../core/log.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const MB = 1024 * 1024;
let db: TestDatabase;
let embedded: EmbeddedPostgres | undefined;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  if (db.kind === 'embedded') embedded = await startEmbeddedPostgres({ loadDataDir: db.tarball });
  const url = db.kind === 'embedded' ? embedded!.url : db.url;
  sql = createSql(url, { path: embedded?.path, max: 1, prepare: true, connectTimeoutSeconds: 5 });
  await sql`create table guard_probe (id int primary key, note text)`;
});

afterAll(async () => {
  await sql.end({ timeout: 1 });
  await embedded?.close();
  if (db.kind === 'postgres') await db.drop();
});

const counters = { ping: async () => {} } as Parameters<typeof checkHealth>[0]['counters'];

async function writeError(id: number): Promise<unknown> {
  try {
    await sql`insert into guard_probe (id, note) values (${id}, 'written')`;
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('the disk guard', () => {
  let free = 1000 * MB;
  let guard: DiskGuard;
  const log = createMemoryLogger();
  beforeAll(() => {
    // No timer in the way: the test looks when it says so.
    guard = guardDiskSpace({ sql, dir: '/data', minFreeBytes: 512 * MB, log, intervalMs: 3_600_000, freeBytes: async () => free });
  });
  afterAll(() => guard.close());

  it('above the floor, writes go through', async () => {
    await guard.check();
    expect(guard.readOnly()).toBe(false);
    expect(guard.freeBytes()).toBe(1000 * MB);
    expect(await writeError(1)).toBeUndefined();
    expect(await checkHealth({ sql, counters, log })).toEqual({ status: 'ok', db: 'ok', redis: 'ok' });
  });

  it('below it, writes are refused whole with a dependency error, reads go on, health is degraded', async () => {
    free = 300 * MB;
    await guard.check();
    expect(guard.readOnly()).toBe(true);
    expect(log.lines).toContainEqual({ level: 'error', msg: 'disk nearly full: writes refused until space is freed', dir: '/data', free_mb: 300, min_free_mb: 512 });

    const refused = await writeError(2);
    expect((refused as { code?: string }).code).toBe('25006');
    const mapped = toDomainError(refused);
    expect(mapped).toBeInstanceOf(AppError);
    expect(mapped).toMatchObject({ code: 'writes_refused', message: READ_ONLY_MESSAGE });
    // A transaction of several writes too, and nothing of it stays.
    await expect(sql.begin(async (tx) => {
      await tx`select 1`;
      await tx`insert into guard_probe (id, note) values (3, 'in a transaction')`;
    })).rejects.toMatchObject({ code: '25006' });
    expect(await sql`select id from guard_probe order by id`).toEqual([{ id: 1 }]);
    expect(await checkHealth({ sql, counters, log })).toEqual({ status: 'degraded', db: 'error', redis: 'ok' });
  });

  it('a look while still low logs nothing new; a failed statfs changes nothing', async () => {
    const before = log.lines.length;
    await guard.check();
    expect(log.lines.length).toBe(before);
    const failing = guardDiskSpace({ sql, dir: '/gone', minFreeBytes: 512 * MB, log, intervalMs: 3_600_000, freeBytes: async () => Promise.reject(new Error('ENOENT')) });
    await failing.check();
    await failing.close();
    expect(failing.readOnly()).toBe(false);
    expect(failing.freeBytes()).toBeUndefined();
    expect(log.lines.at(-1)).toMatchObject({ level: 'warn', msg: 'disk space unknown', dir: '/gone' });
    // The session stayed read-only: the failing guard never touched it.
    expect((await writeError(4) as { code?: string }).code).toBe('25006');
  });

  it('writes come back only a quarter above the floor', async () => {
    free = 600 * MB;
    await guard.check();
    expect(guard.readOnly()).toBe(true);
    expect((await writeError(5) as { code?: string }).code).toBe('25006');
    free = 640 * MB;
    await guard.check();
    expect(guard.readOnly()).toBe(false);
    expect(log.lines.at(-1)).toEqual({ level: 'info', msg: 'disk space back: writes accepted', dir: '/data', free_mb: 640, min_free_mb: 512 });
    expect(await writeError(6)).toBeUndefined();
    expect(await checkHealth({ sql, counters, log })).toEqual({ status: 'ok', db: 'ok', redis: 'ok' });
  });

  it('a floor of 0 is no guard', async () => {
    const off = guardDiskSpace({ sql, dir: '/data', minFreeBytes: 0, log, freeBytes: async () => 0 });
    await off.check();
    expect(off.readOnly()).toBe(false);
    expect(await writeError(7)).toBeUndefined();
    await off.close();
  });
});
