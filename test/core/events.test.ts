// core/events and core/db/transaction.ts: every write use-case records exactly the events it
// should, with its actor, in the write's own transaction (a write whose event cannot be stored does
// not happen; a rolled-back composition leaves neither rows nor events, and publishes nothing);
// subscribers run after commit and cannot fail a write; auto-rebuild is such a subscriber.
import { translateMissing } from '../../core/translate/translate-missing.ts';
import { describe, expect, it } from 'vitest';
import { ADMIN, systemActor, type Actor } from '../../core/actor.ts';
import { EVENT_TYPES, type EventType, type RecordedEvent } from '../../core/events/domain-event.ts';
import { transaction } from '../../core/db/transaction.ts';
import { createAccount } from '../../core/accounts/create-account.ts';
import { updateAccount } from '../../core/accounts/update-account.ts';
import { createProject } from '../../core/accounts/create-project.ts';
import { updateProject } from '../../core/accounts/update-project.ts';
import { createApiKey } from '../../core/accounts/create-api-key.ts';
import { revokeApiKey } from '../../core/accounts/revoke-api-key.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { updateKey } from '../../core/keys/update-key.ts';
import { deleteKey } from '../../core/keys/delete-key.ts';
import { restoreKey } from '../../core/keys/restore-key.ts';
import { renameGroup } from '../../core/groups/rename-group.ts';
import { deleteGroup } from '../../core/groups/delete-group.ts';
import { restoreGroup } from '../../core/groups/restore-group.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { removeLanguage } from '../../core/languages/remove-language.ts';
import { putTranslation } from '../../core/translations/put-translation.ts';
import { deleteTranslation } from '../../core/translations/delete-translation.ts';
import { markUpToDate } from '../../core/translations/mark-up-to-date.ts';
import { addComment } from '../../core/comments/add-comment.ts';
import { deleteComment } from '../../core/comments/delete-comment.ts';
import { resolveComment } from '../../core/comments/resolve-comment.ts';
import { importFile } from '../../core/files/import-file.ts';
import { createTerm } from '../../core/glossary/create-term.ts';
import { updateTerm } from '../../core/glossary/update-term.ts';
import { deleteTerm } from '../../core/glossary/delete-term.ts';
import { importGlossary } from '../../core/glossary/import-glossary.ts';
import { uploadScreenshot } from '../../core/screenshots/upload-screenshot.ts';
import { updateScreenshot } from '../../core/screenshots/update-screenshot.ts';
import { deleteScreenshot } from '../../core/screenshots/delete-screenshot.ts';
import { createTask } from '../../core/tasks/create-task.ts';
import { updateTask } from '../../core/tasks/update-task.ts';
import { deleteTask } from '../../core/tasks/delete-task.ts';
import { readFileSync } from 'node:fs';
import { requestRebuild } from '../../core/cache/request-rebuild.ts';
import { listKeys } from '../../core/keys/list-keys.ts';
import { listLanguages } from '../../core/languages/list-languages.ts';
import { setupFirstOwner } from '../../core/users/setup.ts';
import { acceptInvite, createInvite, revokeInvite } from '../../core/users/invites.ts';
import { changeRole, removeMember } from '../../core/users/members.ts';
import { createWebhookEndpoint } from '../../core/webhooks/create-endpoint.ts';
import { updateWebhookEndpoint } from '../../core/webhooks/update-endpoint.ts';
import { deleteWebhookEndpoint } from '../../core/webhooks/delete-endpoint.ts';
import { disableFailingEndpoint } from '../../core/webhooks/attempt-delivery.ts';
import { replayWebhookDelivery } from '../../core/webhooks/replay-delivery.ts';
import { domainError, useCore, type CoreProject } from './support/core-harness.ts';

const core = useCore();

describe('every write records its events', () => {
  // One write of each kind, in an order that sets up the next; what each must record, exactly.
  type Step = { name: string; types: EventType[]; actor?: Actor; actorOf?: (ids: Record<string, string>) => Actor; run: (p: CoreProject, ids: Record<string, string>) => Promise<unknown> };
  const user: Actor = { type: 'user', id: crypto.randomUUID() };
  const steps: Step[] = [
    { name: 'addLanguage', types: ['language.added'], run: (p) => addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor }) },
    {
      name: 'createKey',
      types: ['key.created'],
      run: async (p, ids) => (ids.key = (await createKey(core.deps, { projectId: p.projectId, key: 'g.k', group_name: 'g', actor: p.actor })).id),
    },
    { name: 'updateKey', types: ['key.updated'], actor: user, run: (p, ids) => updateKey(core.deps, { projectId: p.projectId, keyId: ids.key!, description: 'd', actor: user }) },
    // Tags alone: key.tagged, not key.updated (not content: no rebuild, no translations.changed).
    { name: 'updateKey (tags)', types: ['key.tagged'], actor: user, run: (p, ids) => updateKey(core.deps, { projectId: p.projectId, keyId: ids.key!, tags: ['mobile'], actor: user }) },
    {
      name: 'putTranslation',
      types: ['translation.written'],
      run: (p, ids) => putTranslation(core.deps, { projectId: p.projectId, keyId: ids.key!, language: 'de', value: 'v', actor: p.actor }),
    },
    {
      // An fr value written (directly, recording nothing) against no source text: outdated against
      // de's, then marked up to date. fr goes again after, so that the steps below meet one language.
      name: 'markUpToDate',
      types: ['value.marked_up_to_date'],
      run: async (p, ids) => {
        await core.deps.sql`insert into project_languages (project_id, code) values (${p.projectId}, 'fr')`;
        await core.deps.sql`insert into translations (key_id, project_id, language, value, status) values (${ids.key!}, ${p.projectId}, 'fr', 'v', 'draft')`;
        const marked = await markUpToDate(core.deps, { projectId: p.projectId, keyId: ids.key!, language: 'fr', actor: p.actor });
        expect(marked.outdated).toBe(false);
        await core.deps.sql`delete from translations where key_id = ${ids.key!} and language = 'fr'`;
        await core.deps.sql`delete from project_languages where project_id = ${p.projectId} and code = 'fr'`;
      },
    },
    {
      name: 'addComment',
      types: ['comment.added'],
      run: async (p, ids) => (ids.comment = (await addComment(core.deps, { projectId: p.projectId, keyId: ids.key!, language: 'de', text: 'Formal?', actor: p.actor })).id),
    },
    {
      name: 'resolveComment',
      types: ['comment.resolved'],
      actor: user,
      run: (p, ids) => resolveComment(core.deps, { projectId: p.projectId, keyId: ids.key!, language: 'de', commentId: ids.comment!, resolved: true, actor: user }),
    },
    {
      name: 'reopenComment',
      types: ['comment.reopened'],
      run: (p, ids) => resolveComment(core.deps, { projectId: p.projectId, keyId: ids.key!, language: 'de', commentId: ids.comment!, resolved: false, actor: p.actor }),
    },
    {
      name: 'deleteComment',
      types: ['comment.deleted'],
      actor: user,
      run: (p, ids) => deleteComment(core.deps, { projectId: p.projectId, keyId: ids.key!, language: 'de', commentId: ids.comment!, actor: user }),
    },
    {
      name: 'createTerm',
      types: ['term.added'],
      run: async (p, ids) => (ids.term = (await createTerm(core.deps, { projectId: p.projectId, term: 'Dashboard', actor: p.actor })).id),
    },
    {
      name: 'updateTerm',
      types: ['term.updated'],
      actor: user,
      run: (p, ids) => updateTerm(core.deps, { projectId: p.projectId, termId: ids.term!, description: 'The start page', actor: user }),
    },
    { name: 'deleteTerm', types: ['term.deleted'], run: (p, ids) => deleteTerm(core.deps, { projectId: p.projectId, termId: ids.term!, actor: p.actor }) },
    {
      name: 'uploadScreenshot',
      types: ['screenshot.added'],
      run: async (p, ids) =>
        (ids.screenshot = (
          await uploadScreenshot(core.deps, { projectId: p.projectId, body: new Uint8Array(readFileSync(new URL('../fixtures/screenshots/menu.webp', import.meta.url))), keyIds: [ids.key!], actor: p.actor })
        ).id),
    },
    {
      name: 'updateScreenshot',
      types: ['screenshot.updated'],
      actor: user,
      run: (p, ids) => updateScreenshot(core.deps, { projectId: p.projectId, screenshotId: ids.screenshot!, keys: { [ids.key!]: { region: { x: 0, y: 0, width: 60, height: 20 } } }, actor: user }),
    },
    { name: 'deleteScreenshot', types: ['screenshot.deleted'], run: (p, ids) => deleteScreenshot(core.deps, { projectId: p.projectId, screenshotId: ids.screenshot!, actor: p.actor }) },
    {
      name: 'createTask',
      types: ['task.created'],
      run: async (p, ids) => (ids.task = String((await createTask(core.deps, { projectId: p.projectId, name: 'German', kind: 'translate', language: 'de', key_ids: [ids.key!], include_done: true, actor: p.actor })).number)),
    },
    { name: 'updateTask', types: ['task.updated'], actor: user, run: (p, ids) => updateTask(core.deps, { projectId: p.projectId, number: Number(ids.task), due_date: '2027-01-31', actor: user }) },
    { name: 'cancelTask', types: ['task.canceled'], run: (p, ids) => updateTask(core.deps, { projectId: p.projectId, number: Number(ids.task), state: 'canceled', actor: p.actor }) },
    { name: 'reopenTask', types: ['task.reopened'], run: (p, ids) => updateTask(core.deps, { projectId: p.projectId, number: Number(ids.task), state: 'open', actor: p.actor }) },
    {
      name: 'completeTask',
      types: ['translation.written', 'task.completed'],
      run: async (p, ids) => {
        await putTranslation(core.deps, { projectId: p.projectId, keyId: ids.key!, language: 'de', value: 'Fertig', status: 'approved', actor: p.actor });
        return updateTask(core.deps, { projectId: p.projectId, number: Number(ids.task), state: 'done', actor: p.actor });
      },
    },
    { name: 'deleteTask', types: ['task.deleted'], run: (p, ids) => deleteTask(core.deps, { projectId: p.projectId, number: Number(ids.task), actor: p.actor }) },
    {
      // One event for the whole file, whatever its number of terms.
      name: 'importGlossary',
      types: ['glossary.imported'],
      actor: user,
      run: (p) =>
        importGlossary(core.deps, {
          projectId: p.projectId,
          format: 'csv',
          dryRun: false,
          body: new TextEncoder().encode('term,description\nDashboard,The start page\nSettings,\n'),
          actor: user,
        }),
    },
    {
      name: 'deleteTranslation',
      types: ['translation.deleted'],
      run: (p, ids) => deleteTranslation(core.deps, { projectId: p.projectId, keyId: ids.key!, language: 'de', actor: p.actor }),
    },
    {
      name: 'importFile',
      types: ['translation.imported'],
      run: (p) =>
        importFile(core.deps, {
          projectId: p.projectId,
          language: 'de',
          format: 'json',
          status: 'draft',
          conflict: 'overwrite',
          dryRun: false,
          group: 'Default',
          body: new TextEncoder().encode('{"g.i1":"one","g.i2":"two"}'),
          actor: p.actor,
        }),
    },
    {
      name: 'translateMissing',
      types: ['translation.machine_translated'],
      run: async (p) => {
        // French from the imported German values, by an in-process translator (the provider port).
        await core.deps.sql`insert into project_languages (project_id, code) values (${p.projectId}, 'fr')`;
        await core.deps.sql`update projects set source_language = 'de' where id = ${p.projectId}`;
        const translator = { provider: 'deepl' as const, batchSize: 10, batchBytes: 64 * 1024, translate: async ({ texts }: { texts: readonly string[] }) => texts.map((t) => t.toUpperCase()) };
        await translateMissing({ ...core.deps, translator }, { projectId: p.projectId, language: 'fr', actor: p.actor });
      },
    },
    { name: 'deleteKey', types: ['key.deleted'], run: (p, ids) => deleteKey(core.deps, { projectId: p.projectId, keyId: ids.key!, actor: p.actor }) },
    { name: 'restoreKey', types: ['key.restored'], run: (p, ids) => restoreKey(core.deps, { projectId: p.projectId, keyId: ids.key!, actor: p.actor }) },
    { name: 'renameGroup', types: ['group.renamed'], run: (p) => renameGroup(core.deps, { projectId: p.projectId, name: 'g', newName: 'h', actor: p.actor }) },
    { name: 'deleteGroup', types: ['group.deleted'], run: (p) => deleteGroup(core.deps, { projectId: p.projectId, name: 'h', actor: p.actor }) },
    { name: 'restoreGroup', types: ['group.restored'], run: (p) => restoreGroup(core.deps, { projectId: p.projectId, name: 'h', actor: p.actor }) },
    // de is the source language (the project's first): fr, the one left, takes it, as a settings change.
    { name: 'removeLanguage', types: ['language.removed', 'project.updated'], run: (p) => removeLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor }) },
    { name: 'requestRebuild', types: ['cache.rebuild_requested'], run: (p) => requestRebuild(core.deps, { projectId: p.projectId, actor: p.actor }) },
    { name: 'build', types: ['cache.built'], actor: systemActor('builder'), run: () => core.build(core.sent.at(-1)!) },
    { name: 'updateProject', types: ['project.updated'], actor: ADMIN, run: (p) => updateProject(core.deps, { projectId: p.projectId, auto_rebuild: false, actor: ADMIN }) },
    {
      name: 'createApiKey',
      types: ['api_key.created'],
      actor: ADMIN,
      run: async (p, ids) => (ids.apiKey = (await createApiKey(core.deps, { projectId: p.projectId, actor: ADMIN })).id),
    },
    { name: 'revokeApiKey', types: ['api_key.revoked'], actor: ADMIN, run: (_p, ids) => revokeApiKey(core.deps, { apiKeyId: ids.apiKey!, actor: ADMIN }) },
    { name: 'updateAccount', types: ['account.updated'], actor: ADMIN, run: (p) => updateAccount(core.deps, { accountId: p.accountId, plan: 'team', actor: ADMIN }) },
    {
      name: 'createProject',
      types: ['project.created', 'api_key.created'],
      actor: ADMIN,
      run: (p) => createProject(core.deps, { accountId: p.accountId, name: 'second', actor: ADMIN }),
    },
    {
      name: 'createWebhookEndpoint',
      types: ['webhook.created'],
      actor: ADMIN,
      run: async (p, ids) =>
        (ids.webhook = (await createWebhookEndpoint(core.deps, { projectId: p.projectId, url: 'https://93.184.216.34/hook', events: ['language.added'], actor: ADMIN })).id),
    },
    {
      name: 'updateWebhookEndpoint',
      types: ['webhook.updated'],
      actor: ADMIN,
      run: (p, ids) => updateWebhookEndpoint(core.deps, { projectId: p.projectId, webhookId: ids.webhook!, events: ['cache.rebuilt'], actor: ADMIN }),
    },
    {
      name: 'replayWebhookDelivery',
      types: ['webhook.replayed'],
      actor: ADMIN,
      run: async (p, ids) => {
        const [failed] = await core.deps.sql<{ id: string }[]>`
          insert into webhook_deliveries (endpoint_id, project_id, message_id, event_type, body, status, next_attempt_at)
          values (${ids.webhook!}, ${p.projectId}, 'msg_x', 'cache.rebuilt', '{}', 'failed', null) returning id`;
        await replayWebhookDelivery(core.deps, { projectId: p.projectId, webhookId: ids.webhook!, deliveryId: failed!.id, actor: ADMIN });
      },
    },
    {
      name: 'disableFailingEndpoint',
      types: ['webhook.disabled'],
      actor: systemActor('webhooks'),
      run: (p, ids) => disableFailingEndpoint(core.deps, { projectId: p.projectId, endpointId: ids.webhook! }),
    },
    {
      name: 'deleteWebhookEndpoint',
      types: ['webhook.deleted'],
      actor: ADMIN,
      run: (p, ids) => deleteWebhookEndpoint(core.deps, { projectId: p.projectId, webhookId: ids.webhook!, actor: ADMIN }),
    },
    { name: 'createAccount', types: ['account.created'], actor: ADMIN, run: () => createAccount(core.deps, { name: 'another', plan: 'free', actor: ADMIN }) },
    {
      name: 'setupFirstOwner',
      types: ['account.created', 'member.added'],
      actor: ADMIN,
      run: async (_p, ids) => {
        const owner = await setupFirstOwner(core.deps, { adminToken: core.deps.adminToken, email: 'owner@example.com', password: 'a long passphrase', accountName: 'Team', plan: 'free' });
        [ids.owner, ids.ownerAccount] = [owner.id, owner.accountId];
      },
    },
    {
      name: 'createInvite',
      types: ['member.invited'],
      actorOf: (ids) => ({ type: 'user', id: ids.owner! }),
      run: async (_p, ids) => (ids.invite = (await createInvite(core.deps, { userId: ids.owner!, accountId: ids.ownerAccount!, role: 'translator' })).token),
    },
    {
      name: 'acceptInvite',
      types: ['member.added'],
      actorOf: (ids) => ({ type: 'user', id: ids.member! }),
      run: async (_p, ids) => (ids.member = (await acceptInvite(core.deps, { token: ids.invite!, email: 'member@example.com', password: 'another passphrase' })).id),
    },
    {
      name: 'revokeInvite',
      types: ['member.invited', 'member.invite_revoked'],
      actorOf: (ids) => ({ type: 'user', id: ids.owner! }),
      run: async (_p, ids) => {
        const invite = await createInvite(core.deps, { userId: ids.owner!, accountId: ids.ownerAccount!, role: 'reviewer' });
        await revokeInvite(core.deps, { userId: ids.owner!, accountId: ids.ownerAccount!, inviteId: invite.id });
      },
    },
    {
      name: 'changeRole',
      types: ['member.updated'],
      actorOf: (ids) => ({ type: 'user', id: ids.owner! }),
      run: (_p, ids) => changeRole(core.deps, { userId: ids.owner!, accountId: ids.ownerAccount!, memberId: ids.member!, role: 'reviewer' }),
    },
    {
      name: 'removeMember',
      types: ['member.removed'],
      actorOf: (ids) => ({ type: 'user', id: ids.owner! }),
      run: (_p, ids) => removeMember(core.deps, { userId: ids.owner!, accountId: ids.ownerAccount!, memberId: ids.member! }),
    },
  ];

  it('covers every event type there is', () => {
    expect(new Set(steps.flatMap((s) => s.types))).toEqual(new Set(EVENT_TYPES));
  });

  it('each write records exactly its events, with its actor, and publishes exactly those after commit', async () => {
    const p = await core.newProject('solo');
    const ids: Record<string, string> = {};
    for (const step of steps) {
      const since = await core.lastEventId();
      const publishedBefore = core.published.length;
      await step.run(p, ids);
      const rows = await core.deps.sql<{ id: number; type: string; actor_type: string; actor_id: string | null }[]>`
        select id::int, type, actor_type, actor_id from domain_events where id > ${since} order by id`;
      const actor = step.actorOf?.(ids) ?? step.actor ?? p.actor;
      expect(rows.map((r) => r.type), step.name).toEqual(step.types);
      for (const row of rows) {
        expect([row.actor_type, row.actor_id], step.name).toEqual([actor.type, actor.type === 'admin' ? null : actor.id]);
      }
      expect(core.published.slice(publishedBefore).map((e) => [e.id, e.type]), step.name).toEqual(rows.map((r) => [r.id, r.type]));
    }
  });
});

describe('one transaction', () => {
  it('composes use-cases into one commit: their events are published together, once, in order', async () => {
    const p = await core.newProject('team');
    const batches: (readonly RecordedEvent[])[] = [];
    const unsubscribe = core.deps.events.subscribe((events) => void batches.push(events));
    try {
      await transaction(core.deps, async (tx) => {
        const deps = { ...core.deps, tx };
        await addLanguage(deps, { projectId: p.projectId, code: 'fr', actor: p.actor });
        await createKey(deps, { projectId: p.projectId, key: 'together', actor: p.actor });
        // Nothing is visible, nor published, before the commit.
        expect(batches).toEqual([]);
      });
    } finally {
      unsubscribe();
    }
    expect(batches.map((batch) => batch.map((e) => e.type))).toEqual([['language.added', 'key.created']]);
    const [first, second] = batches[0]!;
    expect(first!.id).toBeLessThan(second!.id);
  });

  it('rolls back the writes and their events together, publishing nothing', async () => {
    const p = await core.newProject('team');
    const since = await core.lastEventId();
    const publishedBefore = core.published.length;
    await expect(
      transaction(core.deps, async (tx) => {
        const deps = { ...core.deps, tx };
        await addLanguage(deps, { projectId: p.projectId, code: 'fr', actor: p.actor });
        await createKey(deps, { projectId: p.projectId, key: 'doomed', actor: p.actor });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await listLanguages(core.deps, { projectId: p.projectId })).count).toBe(0);
    expect((await listKeys(core.deps, { projectId: p.projectId })).count).toBe(0);
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);
    expect(core.published.slice(publishedBefore)).toEqual([]);
  });

  it('a write whose event cannot be stored does not happen (the event is inserted in the same transaction)', async () => {
    const p = await core.newProject('team');
    await createKey(core.deps, { projectId: p.projectId, key: 'k', group_name: 'before', actor: p.actor });
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    const { sql } = core.deps;
    // Refuses this project's events at insert time: the rename's update has run by then.
    await sql.unsafe(`
      create function refuse_events_of_${p.projectId.replaceAll('-', '_')}() returns trigger language plpgsql as $$
      begin
        if new.project_id = '${p.projectId}' then raise exception 'event store refused'; end if;
        return new;
      end $$`);
    const trigger = `refuse_events_${p.projectId.replaceAll('-', '_')}`;
    await sql.unsafe(`create trigger ${trigger} before insert on domain_events for each row execute function refuse_events_of_${p.projectId.replaceAll('-', '_')}()`);
    try {
      await expect(renameGroup(core.deps, { projectId: p.projectId, name: 'before', newName: 'after', actor: p.actor })).rejects.toThrow(
        'event store refused',
      );
      await expect(createKey(core.deps, { projectId: p.projectId, key: 'k2', actor: p.actor })).rejects.toThrow('event store refused');
      const [key] = (await listKeys(core.deps, { projectId: p.projectId })).keys;
      await expect(
        putTranslation(core.deps, { projectId: p.projectId, keyId: key!.id, language: 'de', value: 'v', actor: p.actor }),
      ).rejects.toThrow('event store refused');
      expect((await listKeys(core.deps, { projectId: p.projectId })).keys.map((k) => [k.key, k.group_name])).toEqual([['k', 'before']]);
      const [values] = await sql<{ n: number }[]>`select count(*)::int as n from translations where project_id = ${p.projectId}`;
      expect(values!.n).toBe(0);
    } finally {
      await sql.unsafe(`drop trigger ${trigger} on domain_events`);
    }
  });
});

describe('subscribers', () => {
  it('run after commit; a failing one is logged and never fails the write', async () => {
    const p = await core.newProject();
    const unsubscribe = core.deps.events.subscribe(() => {
      throw new Error('subscriber exploded');
    });
    try {
      await createKey(core.deps, { projectId: p.projectId, key: 'survives', actor: p.actor });
    } finally {
      unsubscribe();
    }
    expect((await listKeys(core.deps, { projectId: p.projectId })).keys.map((k) => k.key)).toEqual(['survives']);
    expect(core.log.lines).toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'event subscriber failed', error: 'Error: subscriber exploded', types: ['key.created'] }),
    );
  });

  it('auto-rebuild queues a rebuild for content changes of projects that have it on, as the system, never for cache events', async () => {
    const on = await core.newProject('team');
    const off = await core.newProject('team');
    await updateProject(core.deps, { projectId: on.projectId, auto_rebuild: true, actor: ADMIN });
    const sentBefore = core.sent.length;
    const since = await core.lastEventId();

    await createKey(core.deps, { projectId: off.projectId, key: 'quiet', actor: off.actor });
    expect(core.sent.slice(sentBefore)).toEqual([]);

    await createKey(core.deps, { projectId: on.projectId, key: 'loud', actor: on.actor });
    expect(core.sent.slice(sentBefore)).toEqual([{ projectId: on.projectId, seq: 1 }]);
    const requested = (await core.events({ projectId: on.projectId }, since)).filter((e) => e.type === 'cache.rebuild_requested');
    expect(requested.map((e) => [e.actor_type, e.actor_id])).toEqual([['system', 'auto-rebuild']]);

    // A rebuild request and a build are cache events: they trigger nothing more.
    await requestRebuild(core.deps, { projectId: on.projectId, actor: on.actor });
    await core.build(core.sent.at(-1)!);
    expect(core.sent.slice(sentBefore).map((m) => m.seq)).toEqual([1, 2]);

    // A refused write commits nothing, so it queues nothing either.
    await domainError(createKey(core.deps, { projectId: on.projectId, key: 'loud', actor: on.actor }), 'conflict');
    expect(core.sent.length - sentBefore).toBe(2);
  });
});
