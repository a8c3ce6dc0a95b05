// Writes of one project that arrive together share one statement (core/db/statement-batches.ts):
// plain PUTs of values (core/translations/value-writes.ts) and key creations without a key limit
// (core/keys/key-creations.ts). Fewer statements than writes, each write answered as it would have
// been alone (its own 404 or 409, its own event), a batch never holding one row twice, batches per
// project, and a batch that meets a held lock yields (its writes go one at a time) instead of
// waiting into a deadlock.
import { describe, expect, it } from 'vitest';
import { addLanguage } from '../../core/languages/add-language.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { createKeyCreations } from '../../core/keys/key-creations.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { createValueWrites, writeValues, type PlainWrite } from '../../core/translations/value-writes.ts';
import { BATCH_LOCK_TIMEOUT_MS } from '../../core/db/statement-batches.ts';
import { domainError, seedKeys, useCore, type CoreProject } from './support/core-harness.ts';
import { usingRealPostgres } from '../support/test-database.ts';

const core = useCore();

async function projectWithKeys(count: number, languages = ['de', 'fr']) {
  const p = await core.newProject('team');
  for (const code of languages) await addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor });
  await seedKeys(core.deps, p.projectId, count, { group: 'g' });
  const keys = await core.deps.sql<{ id: string }[]>`select id from translation_keys where project_id = ${p.projectId} order by key`;
  return { p, ids: keys.map((k) => k.id) };
}

const plain = (p: CoreProject, keyId: string, language: string, value: string): PlainWrite => ({
  projectId: p.projectId,
  keyId,
  language,
  value,
  status: 'review',
  gated: false,
  actorType: 'api_key',
  actorId: p.apiKeyId,
});

/** Counts the batch statements (inserting into `table`) sent while `work` runs. */
async function countStatements(work: () => Promise<unknown>, table = 'translations'): Promise<number> {
  const options = core.deps.sql.options as unknown as { debug: unknown };
  let n = 0;
  options.debug = (_c: number, query: string) => {
    if (query.includes('input as (') && query.includes(`insert into ${table} `)) n++;
  };
  try {
    await work();
  } finally {
    options.debug = false;
  }
  return n;
}

describe('plain writes of values, batched', () => {
  it('32 writes sent together take fewer statements, each answered with its own value, version and event', async () => {
    const { p, ids } = await projectWithKeys(16);
    const since = await core.lastEventId();
    const writes = ids.flatMap((id, i) => ['de', 'fr'].map((language) => ({ id, language, value: `${language} ${i}` })));
    let answers: Awaited<ReturnType<typeof putTranslation>>[] = [];
    const statements = await countStatements(async () => {
      answers = await Promise.all(
        writes.map((w) => putTranslation(core.deps, { projectId: p.projectId, keyId: w.id, language: w.language, value: w.value, status: 'review', actor: p.actor })),
      );
    });
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThan(writes.length);
    answers.forEach((answer, i) => expect(answer).toMatchObject({ key_id: writes[i]!.id, language: writes[i]!.language, value: writes[i]!.value, status: 'review', version: expect.any(Number) }));
    const stored = await core.deps.sql<{ key_id: string; language: string; value: string }[]>`
      select key_id, language, value from translations where project_id = ${p.projectId}`;
    expect(stored).toHaveLength(writes.length);
    for (const w of writes) expect(stored.find((s) => s.key_id === w.id && s.language === w.language)?.value).toBe(w.value);
    const events = await core.events({ projectId: p.projectId }, since);
    expect(events).toHaveLength(writes.length);
    expect(new Set(events.map((e) => e.entity_id))).toEqual(new Set(writes.map((w) => `${w.id}/${w.language}`)));
    for (const e of events) expect(e).toMatchObject({ type: 'translation.written', actor_type: 'api_key', actor_id: p.apiKeyId, before: null });
  });

  it("one write's refusal is its own: a deleted key, another project's key and an unregistered language are 404s beside writes that land", async () => {
    const { p, ids } = await projectWithKeys(6);
    const other = await projectWithKeys(1);
    await deleteKey(core.deps, { projectId: p.projectId, keyId: ids[5]!, actor: p.actor });
    const put = (keyId: string, language: string, value: string) =>
      putTranslation(core.deps, { projectId: p.projectId, keyId, language, value, actor: p.actor });
    const outcomes = await Promise.allSettled([
      put(ids[0]!, 'de', 'a'),
      put(ids[1]!, 'de', 'b'),
      put(ids[5]!, 'de', 'deleted'),
      put(other.ids[0]!, 'de', 'foreign'),
      put(ids[2]!, 'it', 'unregistered'),
      put(ids[3]!, 'fr', 'c'),
      put(ids[4]!, 'de', 'd'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    await domainError(Promise.reject((outcomes[2] as PromiseRejectedResult).reason), 'not_found');
    await domainError(Promise.reject((outcomes[3] as PromiseRejectedResult).reason), 'not_found');
    await domainError(Promise.reject((outcomes[4] as PromiseRejectedResult).reason), 'not_found');
    const [{ n }] = (await core.deps.sql`select count(*)::int as n from translations where project_id in (${p.projectId}, ${other.p.projectId})`) as unknown as [{ n: number }];
    expect(n).toBe(4);
  });

  it('a batch the database refuses as a whole is retried one write at a time: only the bad write fails', async () => {
    const { p, ids } = await projectWithKeys(3);
    const writes = createValueWrites(core.deps.sql, { maxInFlight: 1 });
    const first = writes.write(core.deps.sql, plain(p, ids[0]!, 'de', 'eins'));
    // These queue behind the first, as one batch; the malformed id makes its statement fail.
    const queued = [plain(p, ids[1]!, 'de', 'zwei'), plain(p, 'not-a-uuid', 'de', 'kaputt'), plain(p, ids[2]!, 'de', 'drei')].map((item) => writes.write(core.deps.sql, item));
    const outcomes = await Promise.allSettled([first, ...queued]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(((outcomes[2] as PromiseRejectedResult).reason as { code?: string }).code).toBe('22P02');
    const stored = await core.deps.sql<{ value: string }[]>`select value from translations where project_id = ${p.projectId} order by value`;
    expect(stored.map((r) => r.value)).toEqual(['drei', 'eins', 'zwei']);
  });

  it('a batch never holds one value twice: writes of the same value go in order, the last one stays', async () => {
    const { p, ids } = await projectWithKeys(2);
    const writes = createValueWrites(core.deps.sql, { maxInFlight: 1 });
    const items = ['v1', 'v2', 'v3', 'v4'].flatMap((value) => [plain(p, ids[0]!, 'de', value), plain(p, ids[1]!, 'de', value)]);
    // The key id in capitals is the same row, and must not share a batch with its lower-case twin.
    items.push({ ...plain(p, ids[0]!, 'de', 'v5'), keyId: ids[0]!.toUpperCase() });
    const statements = await countStatements(() => Promise.all(items.map((item) => writes.write(core.deps.sql, item))));
    expect(statements).toBe(5); // the first alone, then one batch per round of the same value
    const stored = await core.deps.sql<{ key_id: string; value: string }[]>`
      select key_id, value from translations where project_id = ${p.projectId} order by key_id`;
    const byKey = Object.fromEntries(stored.map((r) => [r.key_id, r.value]));
    expect(byKey[ids[0]!]).toBe('v5');
    expect(byKey[ids[1]!]).toBe('v4');
    // Each write was its own step: one event each, the before of one the after of the previous.
    const events = (await core.events({ projectId: p.projectId })).filter((e) => e.entity_id.toLowerCase() === `${ids[0]!}/de`);
    expect(events.map((e) => (e.after as { value: string }).value)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
    expect(events.map((e) => (e.before as { value: string } | null)?.value ?? null)).toEqual([null, 'v1', 'v2', 'v3', 'v4']);
  });
});

describe('key creations without a key limit, batched', () => {
  it('24 creations sent together take fewer statements, each answered with its own key and event', async () => {
    const p = await core.newProject('team');
    const since = await core.lastEventId();
    const names = Array.from({ length: 24 }, (_, i) => `batch.k${String(i).padStart(2, '0')}`);
    let created: Awaited<ReturnType<typeof createKey>>[] = [];
    const statements = await countStatements(async () => {
      created = await Promise.all(names.map((key, i) => createKey(core.deps, { projectId: p.projectId, key, group_name: 'batch', description: `d${i}`, actor: p.actor })));
    }, 'translation_keys');
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThan(names.length);
    created.forEach((key, i) => expect(key).toEqual({ id: expect.any(String), project_id: p.projectId, key: names[i], group_name: 'batch', description: `d${i}`, tags: [], max_length: null }));
    expect(new Set(created.map((k) => k.id)).size).toBe(names.length);
    const events = await core.events({ projectId: p.projectId }, since);
    expect(events.map((e) => e.entity_id).sort()).toEqual(created.map((k) => k.id).sort());
    for (const e of events) expect(e.after).toEqual(created.find((k) => k.id === e.entity_id));
  });

  it('a name asked for twice in one burst is created once: one creation, one 409, the others untouched', async () => {
    const p = await core.newProject('team');
    const creations = createKeyCreations(core.deps.sql, { maxInFlight: 1 });
    const item = (key: string) => ({ projectId: p.projectId, key, group_name: 'g', description: null, tags: [], max_length: null, actorType: 'api_key', actorId: p.apiKeyId });
    const rows = await Promise.all(['a', 'b', 'twice', 'c', 'twice', 'd'].map((key) => creations.write(core.deps.sql, item(key))));
    expect(rows.map((r) => [r.key, r.created])).toEqual([['a', true], ['b', true], ['twice', true], ['c', true], [null, false], ['d', true]]);
    expect(rows.every((r) => r.unlimited)).toBe(true);
    // Through the use-case, the second is the spec's 409.
    const again = await Promise.allSettled([1, 2, 3].map(() => createKey(core.deps, { projectId: p.projectId, key: 'thrice', actor: p.actor })));
    expect(again.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of again.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) await domainError(Promise.reject(o.reason), 'conflict');
    const [{ n }] = (await core.deps.sql`select count(*)::int as n from translation_keys where project_id = ${p.projectId}`) as unknown as [{ n: number }];
    expect(n).toBe(6);
  });
});

describe.runIf(usingRealPostgres())('batches and locks (real Postgres)', () => {
  it("a row held by another transaction delays the writes of that row, not its project's other writes nor another project's", async () => {
    const a = await projectWithKeys(3);
    const b = await projectWithKeys(1);
    await putTranslation(core.deps, { projectId: a.p.projectId, keyId: a.ids[0]!, language: 'de', value: 'alt', actor: a.p.actor });
    const holder = await core.deps.sql.reserve();
    try {
      await holder`begin`;
      await holder`select 1 from translations where key_id = ${a.ids[0]!} and language = 'de' for update`;
      // A batch's statement gives up on a held lock after BATCH_LOCK_TIMEOUT_MS (55P03), well
      // before a deadlock check would pick a victim.
      const started = performance.now();
      const refused = await writeValues(core.deps.sql, [plain(a.p, a.ids[1]!, 'de', 'x'), plain(a.p, a.ids[0]!, 'de', 'y')], BATCH_LOCK_TIMEOUT_MS).catch((e: { code?: string }) => e);
      expect((refused as { code?: string }).code).toBe('55P03');
      expect(performance.now() - started).toBeLessThan(900);
      expect(performance.now() - started).toBeGreaterThanOrEqual(BATCH_LOCK_TIMEOUT_MS * 0.9);

      // Through the batches (one statement in flight per project): the write of the held row ...
      const writes = createValueWrites(core.deps.sql, { maxInFlight: 1 });
      const blocked = writes.write(core.deps.sql, plain(a.p, a.ids[0]!, 'de', 'neu'));
      // ... delays neither another project's writes ...
      expect((await writes.write(core.deps.sql, plain(b.p, b.ids[0]!, 'de', 'andere'))).value).toBe('andere');
      // ... nor, past the timeout, its own project's: they land while the row is still held.
      const own = await Promise.all([writes.write(core.deps.sql, plain(a.p, a.ids[1]!, 'de', 'eins')), writes.write(core.deps.sql, plain(a.p, a.ids[2]!, 'fr', 'zwei'))]);
      expect(own.map((row) => row.value)).toEqual(['eins', 'zwei']);
      expect(writes.inFlight()).toBe(0); // the held row's write waits alone, outside the project's slot
      let settled = false;
      void blocked.finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settled).toBe(false);
      await holder`commit`;
      expect((await blocked).value).toBe('neu');
    } finally {
      holder.release();
    }
  });
});
