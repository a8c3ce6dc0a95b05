// core/usage (and the translation units it reports, spent by core/files imports) called directly:
// calls counted per account per day in the counter store (Redis when REDIS_URL is set), peeks that
// count nothing, limits from the plan or the override, units charged only for new or changed text,
// and the monthly hard limit as a 402 with its data that writes nothing.
import { describe, expect, it } from 'vitest';
import { readUsage } from '../../core/usage/read-usage.ts';
import { dailyCallLimit } from '../../core/usage/count-call.ts';
import { updateAccount } from '../../core/accounts/update-account.ts';
import { createProject } from '../../core/accounts/create-project.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { importFile } from '../../core/files/import-file.ts';
import { ADMIN } from '../../core/actor.ts';
import { domainError, liveKeyCount, useCore, type CoreProject } from './support/core-harness.ts';

// One instant for the whole file (a real one: Redis expires counters by the clock).
const NOW = new Date();
const core = useCore({ clock: { now: () => NOW } });
const NEXT_CYCLE = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() + 1, 1)).toISOString();

const countCalls = async (accountId: string, n: number) => {
  for (let i = 0; i < n; i++) await core.deps.calls.count({ accountId, limit: 1_000 });
};

const importJson = (p: CoreProject, values: Record<string, string>, options: { dryRun?: boolean; status?: 'draft' | 'approved' } = {}) =>
  importFile(core.deps, {
    projectId: p.projectId,
    language: 'de',
    format: 'json',
    status: options.status ?? 'draft',
    conflict: 'overwrite',
    dryRun: options.dryRun ?? false,
    group: 'Default',
    body: new TextEncoder().encode(JSON.stringify(values)),
    actor: p.actor,
  });

describe('readUsage', () => {
  it("starts at zero with the plan's limits and the next cycle's start; unknown or malformed projects are refused", async () => {
    const p = await core.newProject('free');
    expect(await readUsage(core.deps, { projectId: p.projectId })).toEqual({
      project_id: p.projectId,
      calls_today: 0,
      daily_limit: 5_000,
      translation_units_used: 0,
      translation_units_allowance: 1_000,
      cycle_resets_at: NEXT_CYCLE,
    });
    await domainError(readUsage(core.deps, { projectId: crypto.randomUUID() }), 'not_found');
    await domainError(readUsage(core.deps, { projectId: 'nope' }), 'validation');
  });

  it("counts calls per account (all its projects together), never another account's; reading counts nothing", async () => {
    const p = await core.newProject('solo');
    const sibling = await createProject(core.deps, { accountId: p.accountId, name: 'sibling', actor: ADMIN });
    const stranger = await core.newProject('solo');
    await countCalls(p.accountId, 3);
    await countCalls(stranger.accountId, 5);
    expect((await readUsage(core.deps, { projectId: p.projectId })).calls_today).toBe(3);
    expect((await readUsage(core.deps, { projectId: p.projectId })).calls_today).toBe(3);
    expect((await readUsage(core.deps, { projectId: sibling.id })).calls_today).toBe(3);
    expect((await readUsage(core.deps, { projectId: stranger.projectId })).calls_today).toBe(5);
    const tally = await core.deps.calls.count({ accountId: p.accountId, limit: 3 });
    // The fourth call of a limit of 3 (grace 0): counted, and refused.
    expect(tally).toMatchObject({ used: 4, limit: 3, grace: 0, allowed: false, remaining: 0 });
  });

  it('reports the account overrides, and the plan again once they are cleared', async () => {
    const p = await core.newProject('team');
    await updateAccount(core.deps, { accountId: p.accountId, daily_call_limit: 12, translation_unit_allowance: 34, actor: ADMIN });
    expect(await readUsage(core.deps, { projectId: p.projectId })).toMatchObject({ daily_limit: 12, translation_units_allowance: 34 });
    await updateAccount(core.deps, { accountId: p.accountId, daily_call_limit: null, translation_unit_allowance: null, actor: ADMIN });
    expect(await readUsage(core.deps, { projectId: p.projectId })).toMatchObject({
      daily_limit: dailyCallLimit({ plan: 'team', dailyCallLimit: null }),
      translation_units_allowance: 100_000,
    });
  });
});

describe('translation units', () => {
  it('charges new and changed texts only (a status change of the same text is free); a dry run charges nothing', async () => {
    const p = await core.newProject('team');
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    const used = async () => (await readUsage(core.deps, { projectId: p.projectId })).translation_units_used;

    expect(await importJson(p, { a: 'A', b: 'B', c: 'C' }, { dryRun: true })).toMatchObject({ translation_units: 3, dry_run: true });
    expect(await used()).toBe(0);
    expect(await liveKeyCount(core.deps, p.projectId)).toBe(0);

    expect(await importJson(p, { a: 'A', b: 'B', c: 'C' })).toMatchObject({ keys_created: 3, values_created: 3, translation_units: 3 });
    expect(await used()).toBe(3);
    expect(await importJson(p, { a: 'A', b: 'B', c: 'C' })).toMatchObject({ values_unchanged: 3, translation_units: 0 });
    expect(await importJson(p, { a: 'A', b: 'B', c: 'C' }, { status: 'approved' })).toMatchObject({ values_updated: 3, translation_units: 0 });
    expect(await importJson(p, { a: 'A2', b: 'B', c: 'C' }, { status: 'approved' })).toMatchObject({ values_updated: 1, translation_units: 1 });
    expect(await used()).toBe(4);
  });

  it('refuses an import past twice the allowance with QUOTA_EXCEEDED and its data, writing and charging nothing', async () => {
    const p = await core.newProject('team');
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    await updateAccount(core.deps, { accountId: p.accountId, translation_unit_allowance: 2, actor: ADMIN });
    await importJson(p, { a: 'A', b: 'B', c: 'C' }); // 3 of the hard limit's 4
    const since = await core.lastEventId();

    const error = await domainError(importJson(p, { d: 'D', e: 'E' }), 'quota_exceeded');
    expect(error.data).toEqual({
      code: 'QUOTA_EXCEEDED',
      used: 5,
      limit: 4,
      reset_date: NEXT_CYCLE.slice(0, 10),
      upgrade_url: core.deps.config.UPGRADE_URL,
    });
    expect(await liveKeyCount(core.deps, p.projectId)).toBe(3);
    expect((await readUsage(core.deps, { projectId: p.projectId })).translation_units_used).toBe(3);
    expect(await core.events({ projectId: p.projectId }, since)).toEqual([]);
    // What still fits goes through.
    expect(await importJson(p, { d: 'D' })).toMatchObject({ translation_units: 1 });
  });
});
