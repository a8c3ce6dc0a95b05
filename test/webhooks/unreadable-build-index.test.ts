// A cache.rebuilt whose build index cannot be read (storage refusing, a file cut short by a power
// cut) stays with its own outbox row: the other projects' immediate events in the same batch go out
// now. The row is tried again at later polls, logged once, and given up (logged) after
// UNREADABLE_INDEX_GIVE_UP_SECONDS. It rolled the whole batch back before: no project got another
// cache.rebuilt or language.* event, and the worker looped every 5 ms logging the same error.
import { describe, expect, it } from 'vitest';
import { dispatchOutbox, UNREADABLE_INDEX_GIVE_UP_SECONDS, type DispatchDeps } from '../../core/webhooks/dispatch-outbox.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_POLL_MS: '60000', WEBHOOKS_DEBOUNCE_MS: '600000' } });

describe('a build index that cannot be read', () => {
  it("holds back only its own event; the batch's others are delivered, and it is given up in time", async () => {
    const [a, b] = [await t.newProject('business'), await t.newProject('business')];
    for (const p of [a, b]) {
      const res = await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['cache.rebuilt', 'language.added'] });
      expect(res.status).toBe(201);
    }
    // The process's own worker is stopped: this test is the only dispatcher.
    await t.runtime.webhooks?.drain();
    const sql = t.runtime.deps.sql;
    const buildId = '20261129T230000000Z-0123abcd';
    await sql`insert into domain_events (type, project_id, actor_type, entity_type, entity_id, after)
              values ('cache.built', ${a.projectId}, 'system', 'cache', ${a.projectId}, ${sql.json({ build_id: buildId })})`;
    await sql`insert into domain_events (type, project_id, actor_type, entity_type, entity_id)
              values ('language.added', ${b.projectId}, 'system', 'language', 'fr')`;

    const logged: string[] = [];
    const log = { ...t.runtime.deps.log, error: (message: string) => void logged.push(message) };
    const objects: ObjectStore = {
      ...t.runtime.deps.objects,
      get: async (key, options) => {
        if (key.includes(buildId)) throw Object.assign(new Error('AccessDenied: Access Denied'), { name: 'AccessDenied' });
        return t.runtime.deps.objects.get(key, options);
      },
    };
    const deps: DispatchDeps = { sql, objects, config: t.runtime.deps.config, log: log as DispatchDeps['log'] };
    const deliveries = async (projectId: string) =>
      (await sql<{ event_type: string }[]>`select event_type from webhook_deliveries where project_id = ${projectId} order by id`).map((r) => r.event_type);
    const outbox = async (projectId: string) => (await sql<{ n: number }[]>`select count(*)::int as n from webhook_outbox where project_id = ${projectId}`)[0]!.n;

    await dispatchOutbox(deps);
    expect(await deliveries(b.projectId)).toEqual(['language.added']);
    expect(await deliveries(a.projectId)).toEqual([]);
    expect(await outbox(a.projectId)).toBe(1);
    // Tried again, logged once.
    await dispatchOutbox(deps);
    await dispatchOutbox(deps);
    expect(logged.filter((m) => /cannot be read/.test(m))).toHaveLength(1);
    expect(await outbox(a.projectId)).toBe(1);

    // Past the wait, announced never, and said so.
    await sql`update webhook_outbox set created_at = now() - make_interval(secs => ${UNREADABLE_INDEX_GIVE_UP_SECONDS + 1}) where project_id = ${a.projectId}`;
    await dispatchOutbox(deps);
    expect(await outbox(a.projectId)).toBe(0);
    expect(await deliveries(a.projectId)).toEqual([]);
    expect(logged.filter((m) => /given up/.test(m))).toHaveLength(1);
  });
});
