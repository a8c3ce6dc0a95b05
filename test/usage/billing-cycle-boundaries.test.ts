// Translation units reset at the start of each calendar month in UTC: the last millisecond of Jan 31
// and Feb 1, a leap year's Feb 29, Dec to Jan; the 402's reset_date and GET /v1/usage's
// cycle_resets_at agree.
import { describe, expect, it } from 'vitest';
import { readUsage } from '../../core/usage/read-usage.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { importFile } from '../../core/files/import-file.ts';
import { updateAccount } from '../../core/accounts/update-account.ts';
import { ADMIN } from '../../core/actor.ts';
import { domainError, useCore, type CoreProject } from '../core/support/core-harness.ts';

let now = new Date('2024-01-31T23:59:59.999Z');
const core = useCore({ clock: { now: () => now } });
const importJson = (p: CoreProject, values: Record<string, string>) =>
  importFile(core.deps, { projectId: p.projectId, language: 'de', format: 'json', status: 'draft', conflict: 'overwrite', dryRun: false, group: 'Default', body: new TextEncoder().encode(JSON.stringify(values)), actor: p.actor });

describe('billing cycle boundaries', () => {
  it('Jan 31 last ms -> Feb 1; Feb 29 leap -> Mar 1; Dec -> Jan', async () => {
    const p = await core.newProject('team');
    await addLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    await updateAccount(core.deps, { accountId: p.accountId, translation_unit_allowance: 1, actor: ADMIN });
    now = new Date('2024-01-31T23:59:59.999Z');
    await importJson(p, { a: 'A', b: 'B' });
    const e = await domainError(importJson(p, { c: 'C' }), 'quota_exceeded');
    expect(e.data).toMatchObject({ reset_date: '2024-02-01', used: 3, limit: 2 });
    expect(await readUsage(core.deps, { projectId: p.projectId })).toMatchObject({ translation_units_used: 2, cycle_resets_at: '2024-02-01T00:00:00.000Z' });
    now = new Date('2024-02-01T00:00:00.000Z');
    expect(await readUsage(core.deps, { projectId: p.projectId })).toMatchObject({ translation_units_used: 0, cycle_resets_at: '2024-03-01T00:00:00.000Z' });
    await importJson(p, { c: 'C', d: 'D' });
    now = new Date('2024-02-29T23:59:59.999Z');
    expect(await readUsage(core.deps, { projectId: p.projectId })).toMatchObject({ translation_units_used: 2, cycle_resets_at: '2024-03-01T00:00:00.000Z' });
    now = new Date('2024-12-31T23:00:00.000Z');
    expect(await readUsage(core.deps, { projectId: p.projectId })).toMatchObject({ translation_units_used: 0, cycle_resets_at: '2025-01-01T00:00:00.000Z' });
  });
});
