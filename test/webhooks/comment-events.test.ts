// The comment.added webhook (migration 030, core/webhooks/dispatch-outbox.ts): a comment on a value is
// sent at once to the endpoints that subscribe to it, signed, with its text, its key's name and its
// author; never as translations.changed; and not at all when it was deleted (or its key put in the
// trash) before it went out. Runs on embedded PGlite, and on real Postgres with DATABASE_URL.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { QUICK_WEBHOOKS_ENV, receiversClosedAfterEach, waitFor, jsonAnswer as ok, registeredReceiver } from '../support/webhook-receiver.ts';
import { transaction } from '../../core/db/transaction.ts';
import { addComment } from '../../core/comments/add-comment.ts';

const t = useTestApp({ env: QUICK_WEBHOOKS_ENV });
const receivers = receiversClosedAfterEach();
const hook = (project: TestProject, events: string[]) => registeredReceiver(t, project.projectId, events, receivers);

async function projectWithKey(): Promise<{ p: TestProject; keyId: string }> {
  const p = await t.newProject('team');
  for (const code of ['en', 'de']) await ok(await t.call(p.apiKey, 'POST', '/v1/languages', { code }), 201);
  const key = (await ok(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'cart.checkout', group_name: 'cart' }), 201)) as { id: string };
  return { p, keyId: key.id };
}
const comment = (p: TestProject, keyId: string, text: string) => t.call(p.apiKey, 'POST', `/v1/keys/${keyId}/translations/de/comments`, { text });

describe('comment.added', () => {
  it('is sent at once, signed, with the comment, its key and its author; a translations.changed subscriber hears nothing of it', async () => {
    const { p, keyId } = await projectWithKey();
    const comments = await hook(p, ['comment.added']);
    const changes = await hook(p, ['translations.changed']);
    const [apiKey] = await t.runtime.deps.sql<{ id: string }[]>`select id::text from api_keys where project_id = ${p.projectId}`;
    const created = (await ok(await comment(p, keyId, 'Use "Zur Kasse", as the web shop does'), 201)) as { id: string; created_at: string };
    const [event] = await waitFor(() => comments.accepted().length >= 1 && comments.accepted(), 5_000, 'comment.added');
    expect(event!.verified).toEqual({
      type: 'comment.added',
      timestamp: expect.any(String),
      data: {
        project_id: p.projectId,
        comment: {
          id: created.id,
          key_id: keyId,
          key: 'cart.checkout',
          group: 'cart',
          language: 'de',
          text: 'Use "Zur Kasse", as the web shop does',
          author: { type: 'api_key', id: apiKey!.id, name: null },
          created_at: created.created_at,
          resolved_at: null,
          resolved_by: null,
        },
      },
    });
    await new Promise((r) => setTimeout(r, 600)); // past the debounce: a translations.changed would have gone by now
    expect(changes.received).toEqual([]);
    expect(comments.accepted()).toHaveLength(1);
  });

  it('a comment deleted, or whose key went to the trash, before it was sent is not announced', async () => {
    const { p, keyId } = await projectWithKey();
    const receiver = await hook(p, ['comment.added']);
    // Added and deleted in one transaction: its outbox row commits, its comment does not exist when sent.
    await transaction(t.runtime.deps, async (tx) => {
      const added = await addComment({ ...t.runtime.deps, tx }, { projectId: p.projectId, keyId, language: 'de', text: 'my password is hunter2', actor: { type: 'user', id: crypto.randomUUID() } });
      await tx.sql`delete from value_comments where id = ${added.id}`;
    });
    // A comment whose key is deleted in the same transaction.
    const other = (await ok(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'cart.total', group_name: 'cart' }), 201)) as { id: string };
    await transaction(t.runtime.deps, async (tx) => {
      await addComment({ ...t.runtime.deps, tx }, { projectId: p.projectId, keyId: other.id, language: 'de', text: 'about a key going away', actor: { type: 'user', id: crypto.randomUUID() } });
      await tx.sql`update translation_keys set deleted_at = now() where id = ${other.id}`;
    });
    // Then one that stays: the outbox is in order, so when it arrives the two before it are done.
    await ok(await comment(p, keyId, 'This one stays'), 201);
    await waitFor(() => receiver.accepted().length >= 1, 5_000, 'the comment that stays');
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.accepted().map((r) => (r.verified!.data.comment as { text: string }).text)).toEqual(['This one stays']);
    const [left] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from webhook_outbox where project_id = ${p.projectId}`;
    expect(left!.n).toBe(0);
  });
});

describe('comment.resolved', () => {
  const resolve = (p: TestProject, keyId: string, commentId: string, resolved: boolean) =>
    t.call(p.apiKey, 'PATCH', `/v1/keys/${keyId}/translations/de/comments/${commentId}`, { resolved });

  it('is sent when a comment is resolved, with who resolved it and when; a comment.added subscriber hears only the comment', async () => {
    const { p, keyId } = await projectWithKey();
    const resolvedHook = await hook(p, ['comment.resolved']);
    const addedHook = await hook(p, ['comment.added']);
    const [apiKey] = await t.runtime.deps.sql<{ id: string }[]>`select id::text from api_keys where project_id = ${p.projectId}`;
    const created = (await ok(await comment(p, keyId, 'Is "Kasse" right here?'), 201)) as { id: string };
    const resolved = (await ok(await resolve(p, keyId, created.id, true), 200)) as { resolved_at: string };
    const [event] = await waitFor(() => resolvedHook.accepted().length >= 1 && resolvedHook.accepted(), 5_000, 'comment.resolved');
    expect(event!.verified).toMatchObject({
      type: 'comment.resolved',
      data: {
        project_id: p.projectId,
        comment: { id: created.id, key: 'cart.checkout', group: 'cart', language: 'de', text: 'Is "Kasse" right here?', resolved_at: resolved.resolved_at, resolved_by: { type: 'api_key', id: apiKey!.id, name: null } },
      },
    });
    await waitFor(() => addedHook.accepted().length >= 1, 5_000, 'comment.added');
    await new Promise((r) => setTimeout(r, 300));
    expect(addedHook.accepted().map((r) => r.verified!.type)).toEqual(['comment.added']);
    expect(resolvedHook.accepted()).toHaveLength(1);
  });

  it('a comment reopened before its resolution was sent is not announced; resolving it again is', async () => {
    const { p, keyId } = await projectWithKey();
    const receiver = await hook(p, ['comment.resolved']);
    const created = (await ok(await comment(p, keyId, 'Formal or informal?'), 201)) as { id: string };
    // Resolved and reopened in one transaction: the outbox row commits, the comment is open when sent.
    await transaction(t.runtime.deps, async (tx) => {
      await tx.sql`update value_comments set resolved_at = now(), resolved_by_type = 'user', resolved_by_id = ${crypto.randomUUID()} where id = ${created.id}`;
      await tx.sql`insert into domain_events (project_id, type, actor_type, actor_id, entity_type, entity_id, after)
        values (${p.projectId}, 'comment.resolved', 'system', null, 'comment', ${created.id}, '{}'::jsonb)`;
      await tx.sql`update value_comments set resolved_at = null, resolved_by_type = null, resolved_by_id = null where id = ${created.id}`;
    });
    const outbox = async () => (await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from webhook_outbox where project_id = ${p.projectId}`)[0]!.n;
    const drained = async () => (await outbox()) === 0;
    for (let i = 0; i < 100 && !(await drained()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await outbox()).toBe(0);
    expect(receiver.received).toEqual([]);
    await ok(await resolve(p, keyId, created.id, true), 200);
    await waitFor(() => receiver.accepted().length >= 1, 5_000, 'the second resolution');
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.accepted()).toHaveLength(1);
    expect((receiver.accepted()[0]!.verified!.data.comment as { resolved_by: { type: string } }).resolved_by.type).toBe('api_key');
  });
});
