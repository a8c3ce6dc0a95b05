// core/accounts (and the API keys it mints, verified by core/auth) called directly: account-level
// events, the plan's project limit, plan changes that apply at once (also to cached principals),
// API keys whose plain value is returned once and recorded nowhere, revocation.
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../../core/actor.ts';
import { createAccount } from '../../core/accounts/create-account.ts';
import { createProject } from '../../core/accounts/create-project.ts';
import { updateAccount } from '../../core/accounts/update-account.ts';
import { updateProject } from '../../core/accounts/update-project.ts';
import { createApiKey } from '../../core/accounts/create-api-key.ts';
import { revokeApiKey } from '../../core/accounts/revoke-api-key.ts';
import { createKey } from '../../core/keys/create-key.ts';
import { domainError, liveKeyCount, seedKeys, useCore } from './support/core-harness.ts';

const core = useCore();

describe('createAccount and createProject', () => {
  it('records account.created at account level and project.created plus api_key.created, never the plain key', async () => {
    const since = await core.lastEventId();
    const account = await createAccount(core.deps, { name: 'Acme', plan: 'solo', actor: ADMIN });
    expect(account).toEqual({ id: expect.any(String), name: 'Acme', plan: 'solo', daily_call_limit: null, translation_unit_allowance: null });
    const project = await createProject(core.deps, { accountId: account.id, name: 'Web', actor: ADMIN });
    expect(project).toMatchObject({ account_id: account.id, name: 'Web', auto_rebuild: false, api_key: { id: expect.any(String) } });
    expect(project.api_key.key).toMatch(/^key_live_[0-9A-Za-z]{40}$/);

    expect(await core.events({ accountId: account.id }, since)).toEqual([
      expect.objectContaining({ type: 'account.created', project_id: null, actor_type: 'admin', actor_id: null, entity_type: 'account', entity_id: account.id, after: account }),
      expect.objectContaining({ type: 'project.created', project_id: project.id, entity_type: 'project', entity_id: project.id }),
    ]);
    const projectEvents = await core.events({ projectId: project.id }, since);
    expect(projectEvents.map((e) => [e.type, e.entity_type, e.entity_id])).toEqual([
      ['project.created', 'project', project.id],
      ['api_key.created', 'api_key', project.api_key.id],
    ]);
    const [raw] = await core.deps.sql<{ text: string }[]>`
      select string_agg(coalesce(before::text, '') || coalesce(after::text, '') || entity_id, ' ') as text from domain_events where id > ${since}`;
    expect(raw!.text).not.toContain(project.api_key.key);
  });

  it('refuses invalid names and plans at the field', async () => {
    for (const [input, loc] of [
      [{ name: '', plan: 'free' }, 'name'],
      [{ name: 'x'.repeat(201), plan: 'free' }, 'name'],
      [{ name: 'ok', plan: 'gold' }, 'plan'],
    ] as const) {
      const error = await domainError(createAccount(core.deps, { ...input, actor: ADMIN } as never), 'validation');
      expect(error.issues?.map((i) => i.loc.join('.'))).toEqual([loc]);
    }
  });

  it("refuses a project past the plan's limit with the numbers, writing nothing; a missing account is a 404", async () => {
    const accountId = await core.newAccount('free'); // 1 project
    await createProject(core.deps, { accountId, name: 'one', actor: ADMIN });
    const since = await core.lastEventId();
    const error = await domainError(createProject(core.deps, { accountId, name: 'two', actor: ADMIN }), 'plan_limit');
    expect(error.data).toEqual({ resource: 'projects', plan: 'free', limit: 1, current: 1, adding: 1 });
    const [row] = await core.deps.sql<{ n: number }[]>`select count(*)::int as n from projects where account_id = ${accountId}`;
    expect(row!.n).toBe(1);
    expect(await core.events({ accountId }, since)).toEqual([]);
    await domainError(createProject(core.deps, { accountId: crypto.randomUUID(), name: 'x', actor: ADMIN }), 'not_found');
  });
});

describe('updateAccount: plan changes', () => {
  it('an upgrade lifts the limits at once; a downgrade keeps what exists and refuses what is new', async () => {
    const p = await core.newProject('free'); // 250 keys
    await seedKeys(core.deps, p.projectId, 250);
    await domainError(createKey(core.deps, { projectId: p.projectId, key: 'k251', actor: p.actor }), 'plan_limit');

    const since = await core.lastEventId();
    const upgraded = await updateAccount(core.deps, { accountId: p.accountId, plan: 'team', actor: ADMIN });
    expect(upgraded).toMatchObject({ id: p.accountId, plan: 'team' });
    await createKey(core.deps, { projectId: p.projectId, key: 'k251', actor: p.actor });
    await createKey(core.deps, { projectId: p.projectId, key: 'k252', actor: p.actor });

    await updateAccount(core.deps, { accountId: p.accountId, plan: 'free', actor: ADMIN });
    expect(await liveKeyCount(core.deps, p.projectId)).toBe(252);
    const refused = await domainError(createKey(core.deps, { projectId: p.projectId, key: 'k253', actor: p.actor }), 'plan_limit');
    expect(refused.data).toMatchObject({ plan: 'free', limit: 250, current: 252 });

    const events = await core.events({ accountId: p.accountId }, since);
    expect(events.map((e) => [e.type, e.actor_type, (e.before as { plan: string }).plan, (e.after as { plan: string }).plan])).toEqual([
      ['account.updated', 'admin', 'free', 'team'],
      ['account.updated', 'admin', 'team', 'free'],
    ]);
  });

  it('changes overrides (null returns to the plan), evicts cached principals at once, refuses an empty change or a missing account', async () => {
    const p = await core.newProject('solo');
    expect(await core.deps.apiKeys.verify(p.apiKey)).toMatchObject({ plan: 'solo', dailyCallLimit: null, projectId: p.projectId });
    await updateAccount(core.deps, { accountId: p.accountId, plan: 'business', daily_call_limit: 7, translation_unit_allowance: 0, actor: ADMIN });
    // The verifier caches principals for API_KEY_CACHE_SECONDS: the change must not wait for that.
    expect(await core.deps.apiKeys.verify(p.apiKey)).toMatchObject({ plan: 'business', dailyCallLimit: 7 });
    expect(await updateAccount(core.deps, { accountId: p.accountId, daily_call_limit: null, actor: ADMIN })).toMatchObject({
      plan: 'business',
      daily_call_limit: null,
      translation_unit_allowance: 0,
    });
    await domainError(updateAccount(core.deps, { accountId: p.accountId, actor: ADMIN }), 'validation');
    const negative = await domainError(updateAccount(core.deps, { accountId: p.accountId, daily_call_limit: -1, actor: ADMIN }), 'validation');
    expect(negative.issues?.[0]?.loc).toEqual(['daily_call_limit']);
    await domainError(updateAccount(core.deps, { accountId: crypto.randomUUID(), plan: 'team', actor: ADMIN }), 'not_found');
  });
});

describe('updateProject', () => {
  it('switches auto_rebuild and records before and after', async () => {
    const p = await core.newProject();
    const since = await core.lastEventId();
    expect(await updateProject(core.deps, { projectId: p.projectId, auto_rebuild: true, actor: ADMIN })).toMatchObject({ auto_rebuild: true });
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([
      expect.objectContaining({ type: 'project.updated', before: { auto_rebuild: false }, after: { auto_rebuild: true } }),
    ]);
    await domainError(updateProject(core.deps, { projectId: crypto.randomUUID(), auto_rebuild: true, actor: ADMIN }), 'not_found');
  });
});

describe('API keys', () => {
  it('a new key verifies to its project; a revoked one stops at once; revoking twice records one event', async () => {
    const p = await core.newProject();
    const since = await core.lastEventId();
    const extra = await createApiKey(core.deps, { projectId: p.projectId, actor: ADMIN });
    expect(extra).toMatchObject({ project_id: p.projectId, key: expect.stringMatching(/^key_live_/) });
    expect(await core.deps.apiKeys.verify(extra.key)).toMatchObject({ apiKeyId: extra.id, projectId: p.projectId, accountId: p.accountId });

    await revokeApiKey(core.deps, { apiKeyId: extra.id, actor: ADMIN });
    expect((await domainError(core.deps.apiKeys.verify(extra.key), 'unauthorized')).message).toBe('Invalid API key');
    await revokeApiKey(core.deps, { apiKeyId: extra.id, actor: ADMIN });
    // The project's first key is untouched.
    expect(await core.deps.apiKeys.verify(p.apiKey)).toMatchObject({ apiKeyId: p.apiKeyId });

    const events = await core.events({ projectId: p.projectId }, since);
    expect(events.map((e) => [e.type, e.entity_id, e.actor_type, e.before, e.after])).toEqual([
      ['api_key.created', extra.id, 'admin', null, { kind: 'live', name: null, allowed_origins: null, allowed_languages: null }],
      ['api_key.revoked', extra.id, 'admin', null, null],
    ]);
    await domainError(revokeApiKey(core.deps, { apiKeyId: crypto.randomUUID(), actor: ADMIN }), 'not_found');
    await domainError(createApiKey(core.deps, { projectId: crypto.randomUUID(), actor: ADMIN }), 'not_found');
  });
});
