// core/projects/fallbacks.ts and its use-cases, without HTTP: the checks, the removal of a language
// from the chains, and a changed setting scheduling an auto rebuild (the chains change built files).
import { describe, expect, it } from 'vitest';
import { fallbackIssues, withoutLanguage } from '../../core/projects/fallbacks.ts';
import { updateProject } from '../../core/accounts/update-project.ts';
import { addLanguage } from '../../core/languages/add-language.ts';
import { removeLanguage } from '../../core/languages/remove-language.ts';
import { ADMIN } from '../../core/actor.ts';
import { domainError, useCore } from './support/core-harness.ts';

const core = useCore();
const registered = new Set(['de', 'de-AT', 'de-CH', 'en', 'fr']);

describe('fallbackIssues', () => {
  it('accepts chains of registered languages without cycles, shared tails included', () => {
    expect(fallbackIssues({ 'de-AT': ['de', 'en'], 'de-CH': ['de', 'en'], de: ['en'], fr: ['en'] }, registered)).toEqual([]);
  });

  it('names the chain at fault for each problem, and the cycle as a path', () => {
    expect(fallbackIssues({ de: ['de-AT'], 'de-AT': ['de-CH'], 'de-CH': ['de'] }, registered)).toEqual([
      { loc: ['fallbacks', 'de'], msg: 'Fallback chains form a cycle: de -> de-AT -> de-CH -> de', type: 'fallback_cycle' },
    ]);
    expect(fallbackIssues({ de: ['de', 'it'] }, registered).map((i) => i.type)).toEqual(['fallback_self', 'language_not_registered']);
    expect(fallbackIssues({ it: ['de'] }, registered, ['body', 'fallbacks'])).toEqual([
      { loc: ['body', 'fallbacks', 'it'], msg: "Language 'it' is not registered for this project", type: 'language_not_registered' },
    ]);
  });

  it('withoutLanguage drops the language everywhere, and chains left empty', () => {
    expect(withoutLanguage({ 'de-AT': ['de', 'en'], fr: ['en'], en: ['de'] }, 'en')).toEqual({ 'de-AT': ['de'] });
  });
});

describe('the setting in use', () => {
  it('a changed setting queues a rebuild when auto_rebuild is on; a language removal records the chains it changed', async () => {
    const p = await core.newProject('team');
    for (const code of ['de', 'de-AT', 'en']) await addLanguage(core.deps, { projectId: p.projectId, code, actor: p.actor });
    await updateProject(core.deps, { projectId: p.projectId, auto_rebuild: true, actor: ADMIN });
    const sent = core.sent.length;
    const project = await updateProject(core.deps, { projectId: p.projectId, fallbacks: { 'de-AT': ['de', 'en'] }, actor: ADMIN });
    expect(project.fallbacks).toEqual({ 'de-AT': ['de', 'en'] });
    expect(core.sent.slice(sent).map((m) => m.projectId)).toEqual([p.projectId]);

    const since = await core.lastEventId();
    await removeLanguage(core.deps, { projectId: p.projectId, code: 'de', actor: p.actor });
    const events = await core.events({ projectId: p.projectId }, since);
    expect(events.find((e) => e.type === 'project.updated')).toMatchObject({
      before: { fallbacks: { 'de-AT': ['de', 'en'] } },
      after: { fallbacks: { 'de-AT': ['en'] } },
    });
    await domainError(updateProject(core.deps, { projectId: p.projectId, fallbacks: { 'de-AT': ['de'] }, actor: ADMIN }), 'validation');
  });
});
