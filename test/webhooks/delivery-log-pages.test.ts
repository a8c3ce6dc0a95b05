// The delivery log is paged (?cursor= with the previous page's next_cursor, on (created_at, id)
// descending): it showed the newest 200 at most, and the failed deliveries of a longer outage could
// not be listed to replay them.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';

const t = useTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', AUTO_REBUILD_DEBOUNCE_MS: '600000' } });

type Page = { deliveries: { id: string; message_id: string; status: string; created_at: string }[]; next_cursor: string | null };

describe('the delivery log, a page at a time', () => {
  it('lists every delivery once, newest first, across pages, with the status filter kept', async () => {
    const p = await t.newProject('team');
    // Nothing listens on port 9; the rows below are finished, so no worker attempts them.
    const { id } = (await (await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['language.added'] })).json()) as { id: string };
    // 225 failed and 25 succeeded deliveries, several created in the same microsecond (a tie the id
    // breaks). An hour old, well inside the log's retention: made on a fixed date, they passed the
    // 30 days one day and the worker's prune deleted them between two pages of this test.
    await t.runtime.deps.sql`
      insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body, status, attempts, next_attempt_at, created_at)
      select ${id}, ${p.projectId}, 'msg_' || n, 'language.added', '{}', case when n % 10 = 0 then 'succeeded' else 'failed' end, 1, null,
             date_trunc('second', now()) - interval '1 hour' + make_interval(secs => (n / 5) * 0.000001)
      from generate_series(1, 250) as n`;
    const base = `/projects/${p.projectId}/webhooks/${id}/deliveries`;
    const get = async (query: string) => {
      const res = await t.admin('GET', `${base}?${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as Page;
    };

    const failed: Page['deliveries'] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await get(`status=failed&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      failed.push(...page.deliveries);
      cursor = page.next_cursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(2);
    expect(failed).toHaveLength(225);
    expect(new Set(failed.map((d) => d.id)).size).toBe(225);
    expect(failed.every((d) => d.status === 'failed')).toBe(true);
    // Newest first: message numbers fall (created_at follows n).
    const order = failed.map((d) => Math.floor(Number(d.message_id.slice(4)) / 5));
    expect(order).toEqual([...order].sort((a, b) => b - a));

    // Small pages: the default listing, 7 at a time, every delivery once; the last page says null.
    const all: string[] = [];
    cursor = null;
    for (let i = 0; i < 60; i++) {
      const page: Page = await get(`limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...page.deliveries.map((d) => d.id));
      cursor = page.next_cursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(all).toHaveLength(250);
    expect(new Set(all).size).toBe(250);

    // The default page is 50, with a cursor to the rest.
    const first = await get('');
    expect(first.deliveries).toHaveLength(50);
    expect(first.next_cursor).toEqual(expect.any(String));
  });

  it('a cursor this API did not give out is a 422', async () => {
    const p = await t.newProject('team');
    const { id } = (await (await t.admin('POST', `/projects/${p.projectId}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['language.added'] })).json()) as { id: string };
    for (const cursor of [id, 'x', Buffer.from('{"at":"2026-02-30T00:00:00.000000Z","id":"' + id + '"}').toString('base64url')]) {
      const res = await t.admin('GET', `/projects/${p.projectId}/webhooks/${id}/deliveries?cursor=${cursor}`);
      expect(res.status).toBe(422);
    }
  });
});
