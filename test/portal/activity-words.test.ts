// The activity log's words (functions/portal/views/activity-words.ts): every event type reads as a
// sentence, never its type name or JSON; the payloads below are the ones the recording code writes
// (the use-case or the SQL named beside each).
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, type EventType } from '../../core/events/domain-event.ts';
import { actorLabel, describeEvent, plain, summarizeChange, type ActivityNames, type EventLike } from '../../functions/portal/views/activity-words.ts';

const KEY = '11111111-2222-4333-8444-555555555555';
const API_KEY = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const USER = '99999999-8888-4777-8666-555555555555';
const PROJECT = '12345678-1234-4234-8234-123456789abc';
const WEBHOOK = 'abcdef01-2345-4678-9abc-def012345678';
const COMMENT = 'c0c0c0c0-1111-4222-8333-444455556666';
const TERM = 'deadbeef-1111-4222-8333-444455556666';
const SHOT = '5c5c5c5c-1111-4222-8333-444455556666';
const KEY2 = '22222222-2222-4333-8444-555555555555';
const names: ActivityNames = { keys: { [KEY]: 'home.title' }, apiKeys: { [API_KEY]: 'CI' }, webhooks: { [WEBHOOK]: 'https://hooks.example.com/services/T01/B02/secret-token' } };

const event = (type: string, entity: [string, string], before: unknown, after: unknown, actor: Partial<EventLike> = {}): EventLike => ({
  type,
  actor_type: 'user',
  actor_id: USER,
  actor_email: 'dev@example.com',
  entity_type: entity[0],
  entity_id: entity[1],
  before,
  after,
  ...actor,
});

/** One realistic event of each type, as recorded. */
const SAMPLES: Record<EventType, EventLike> = {
  // core/accounts/create-account.ts (the row), update-account.ts (before and after rows)
  'account.created': event('account.created', ['account', USER], null, { id: USER, name: 'Acme', plan: 'team', daily_call_limit: null, translation_unit_allowance: null }, { actor_type: 'admin', actor_id: null }),
  'account.updated': event(
    'account.updated',
    ['account', USER],
    { id: USER, name: 'Acme', plan: 'free', daily_call_limit: 1000, translation_unit_allowance: null },
    { id: USER, name: 'Acme', plan: 'team', daily_call_limit: null, translation_unit_allowance: null },
    { actor_type: 'admin', actor_id: null },
  ),
  // core/accounts/create-project.ts
  'project.created': event('project.created', ['project', PROJECT], null, { id: PROJECT, name: 'Shop', auto_rebuild: true, fallbacks: {}, source_language: 'en', quality_blocking: [] }),
  // core/accounts/update-project.ts: only the fields the request set
  'project.updated': event('project.updated', ['project', PROJECT], { auto_rebuild: false, fallbacks: {} }, { auto_rebuild: true, fallbacks: { 'de-AT': ['de', 'en'] } }),
  // core/accounts/create-api-key.ts, revoke-api-key.ts (no payload)
  'api_key.created': event('api_key.created', ['api_key', API_KEY], null, { kind: 'delivery', name: 'CI', allowed_origins: ['https://app.example.com'], allowed_languages: ['de'] }),
  'api_key.revoked': event('api_key.revoked', ['api_key', API_KEY], null, null),
  // core/keys/create-key.ts and key-creations.ts (to_jsonb of the row), update-key.ts, delete-key.ts, restore-key.ts
  'key.created': event('key.created', ['key', KEY], null, { id: KEY, project_id: PROJECT, key: 'home.title', group_name: 'home', description: null }),
  'key.updated': event('key.updated', ['key', KEY], { group_name: 'home', description: null }, { group_name: 'landing', description: 'The page title' }),
  // core/keys/bulk-tag-keys.ts, update-key.ts (tags alone), an import's tag
  'key.tagged': event('key.tagged', ['key', KEY], { tags: ['mobile'] }, { key: 'home.title', tags: ['mobile', 'release-2.3'] }),
  'key.deleted': event('key.deleted', ['key', KEY], { key: 'home.title', group_name: 'home' }, null),
  'key.restored': event('key.restored', ['key', KEY], null, { id: KEY, project_id: PROJECT, key: 'home.title', group_name: 'home', description: null }),
  // core/groups/rename-group.ts (entity: the new name), delete-group.ts, restore-group.ts
  'group.renamed': event('group.renamed', ['group', 'landing'], { name: 'home' }, { name: 'landing', keys: 3 }),
  'group.deleted': event('group.deleted', ['group', 'home'], { keys: 3 }, null),
  'group.restored': event('group.restored', ['group', 'home'], null, { keys: 3 }),
  // core/languages/add-language.ts, remove-language.ts
  'language.added': event('language.added', ['language', 'fr'], null, null),
  'language.removed': event('language.removed', ['language', 'fr'], { values: 12 }, null),
  // core/translations/value-writes.ts and put-translation.ts (jsonb_build_object), delete-translation.ts
  'translation.written': event('translation.written', ['translation', `${KEY}/de`], { value: 'Hallo', status: 'draft' }, { value: 'Servus', status: 'approved' }),
  'translation.deleted': event('translation.deleted', ['translation', `${KEY}/de`], { value: 'Hallo', status: 'draft' }, null),
  // core/translations/mark-up-to-date.ts
  'value.marked_up_to_date': event('value.marked_up_to_date', ['translation', `${KEY}/de`], null, { value: 'Hallo', status: 'approved' }),
  // core/comments/add-comment.ts, delete-comment.ts (the comment's author: here another member's)
  'comment.added': event('comment.added', ['comment', COMMENT], null, { key_id: KEY, language: 'de' }),
  'comment.deleted': event('comment.deleted', ['comment', COMMENT], { key_id: KEY, language: 'de', author_type: 'user', author_id: API_KEY }, null),
  // core/comments/resolve-comment.ts (the comment's author in `after`)
  'comment.resolved': event('comment.resolved', ['comment', COMMENT], null, { key_id: KEY, language: 'de', author_type: 'user', author_id: API_KEY }),
  'comment.reopened': event('comment.reopened', ['comment', COMMENT], null, { key_id: KEY, language: 'de', author_type: 'user', author_id: USER }),
  // core/glossary/create-term.ts, update-term.ts (the spelling, and only the fields that changed), delete-term.ts
  'term.added': event('term.added', ['term', TERM], null, { term: 'Dashboard', translations: { de: 'Übersicht', fr: 'Tableau de bord' } }),
  'term.updated': event(
    'term.updated',
    ['term', TERM],
    { term: 'Dashboard', description: '', translatable: true, translations: { de: 'Übersicht', fr: 'Tableau de bord' } },
    { term: 'Dashboard', description: 'The start page', translatable: false, translations: { de: 'Startseite', es: 'Panel' } },
  ),
  'term.deleted': event('term.deleted', ['term', TERM], { term: 'Dashboard' }, null),
  // core/glossary/import-glossary.ts: one event per file, on the project
  'glossary.imported': event('glossary.imported', ['project', PROJECT], null, { format: 'csv', terms_created: 12, terms_updated: 3, translations_written: 25 }),
  // core/screenshots/upload-screenshot.ts (the keys linked, by id), update-screenshot.ts (the name before; after, the name and
  // the key ids linked, unlinked and moved, each only when some were), delete-screenshot.ts
  'screenshot.added': event('screenshot.added', ['screenshot', SHOT], null, { name: 'Sign-in page', width: 390, height: 260, keys: [KEY, KEY2] }),
  'screenshot.updated': event(
    'screenshot.updated',
    ['screenshot', SHOT],
    { name: 'Sign-in' },
    { name: 'Sign-in page', linked: [KEY, KEY2], unlinked: [WEBHOOK], moved: [COMMENT] },
  ),
  'screenshot.deleted': event('screenshot.deleted', ['screenshot', SHOT], { name: 'Sign-in page' }, null),
  // core/tasks: create-task.ts (number, name, kind, language, the key count, assignee ids, due day), update-task.ts (each
  // changed field before and after, keys added and removed as counts, the number on both sides), delete-task.ts
  'task.created': event('task.created', ['task', SHOT], null, { number: 3, name: 'German for the release', kind: 'translate', language: 'de', keys: 40, assignees: [USER], due_date: '2026-12-31' }),
  'task.updated': event('task.updated', ['task', SHOT], { number: 3, name: 'German', due_date: null }, { number: 3, name: 'German for the release', due_date: '2026-12-31', keys_added: 2 }),
  'task.completed': event('task.completed', ['task', SHOT], { number: 3, state: 'open' }, { number: 3, state: 'done' }),
  'task.canceled': event('task.canceled', ['task', SHOT], { number: 3, state: 'open' }, { number: 3, state: 'canceled' }),
  'task.reopened': event('task.reopened', ['task', SHOT], { number: 3, state: 'done' }, { number: 3, state: 'open', keys_added: 1 }),
  'task.deleted': event('task.deleted', ['task', SHOT], { number: 3, name: 'German for the release', kind: 'translate', language: 'de', state: 'open' }, null),
  // core/files/import-file.ts
  'translation.imported': event('translation.imported', ['language', 'de'], null, {
    format: 'json',
    status: 'draft',
    conflict: 'overwrite',
    keys_created: 3,
    values_created: 10,
    values_updated: 2,
    translation_units: 12,
  }),
  // core/translate/translate-missing.ts
  'translation.machine_translated': event('translation.machine_translated', ['language', 'de'], null, {
    provider: 'deepl',
    status: 'draft',
    from_memory: 2,
    from_provider: 3,
    written: 5,
    translation_units: 3,
  }),
  // core/cache/request-rebuild.ts, build-project-cache.ts (actor system/builder)
  'cache.rebuild_requested': event('cache.rebuild_requested', ['cache', PROJECT], null, { seq: 6 }, { actor_type: 'system', actor_id: 'auto-rebuild', actor_email: null }),
  'cache.built': event('cache.built', ['cache', PROJECT], null, { build_id: '20240101T000000Z-abc', seq: 6, built_at: '2024-01-01T00:00:00.000Z' }, { actor_type: 'system', actor_id: 'builder', actor_email: null }),
  // core/users/setup.ts and invites.ts (acceptInvite: the new member's own act), members.ts
  'member.added': event('member.added', ['member', USER], null, { email: 'owner@example.com', role: 'owner', languages: null }, { actor_type: 'admin', actor_id: null }),
  'member.invited': event('member.invited', ['member', KEY], null, { role: 'reviewer', languages: null, expires_at: '2030-01-08T10:00:00.000Z' }),
  'member.invite_revoked': event('member.invite_revoked', ['member', KEY], { role: 'reviewer', languages: null }, null),
  'member.updated': event('member.updated', ['member', KEY], { role: 'translator', languages: ['de'] }, { role: 'owner', languages: null }),
  'member.removed': event('member.removed', ['member', KEY], { role: 'developer', languages: null }, null),
  // core/webhooks/*: never the secret
  'webhook.created': event('webhook.created', ['webhook', WEBHOOK], null, { url: 'https://hooks.example.com/services/T01/B02/secret-token', events: ['translation.written', 'cache.built'] }),
  'webhook.updated': event(
    'webhook.updated',
    ['webhook', WEBHOOK],
    { url: 'https://hooks.example.com/services/T01/B02/secret-token', events: ['cache.built'], description: null, enabled: true },
    { url: 'https://hooks.example.com/services/T01/B02/secret-token', events: ['cache.built'], description: null, enabled: false },
  ),
  'webhook.deleted': event('webhook.deleted', ['webhook', WEBHOOK], { url: 'https://hooks.example.com/services/T01/B02/secret-token', events: ['cache.built'] }, null),
  'webhook.replayed': event('webhook.replayed', ['webhook', WEBHOOK], null, { delivery_id: '42', replay_of: '41', message_id: 'msg_1' }, { actor_type: 'admin', actor_id: null }),
  'webhook.disabled': event('webhook.disabled', ['webhook', WEBHOOK], null, { enabled: false, reason: 'failing', failing_since: '2024-01-01T00:00:00.000Z' }, {
    actor_type: 'system',
    actor_id: 'webhooks',
    actor_email: null,
  }),
};

/** Tags changed: by the key form or PATCH (update-key.ts: the whole row), and by a bulk tagging (bulk-tag-keys.ts: the tags, the key's name after). */
const TAGS_EDITED = event(
  'key.updated',
  ['key', KEY],
  { group_name: 'home', description: null, tags: ['mobile'] },
  { group_name: 'landing', description: null, tags: ['mobile', 'release-2.3'] },
);
const TAGGED_IN_BULK = event('key.tagged', ['key', KEY], { tags: ['mobile'] }, { key: 'home.title', tags: ['mobile', 'release-2.3'] });

const what = (e: EventLike, n: ActivityNames = names) => plain(describeEvent(e, n));
const change = (e: EventLike) => plain(summarizeChange(e));

describe('every event type', () => {
  it.each([...EVENT_TYPES])('%s reads as words: no type name, no JSON', (type) => {
    const e = SAMPLES[type];
    const description = what(e);
    expect(description.length).toBeGreaterThan(0);
    expect(description).not.toContain(type);
    expect(description).not.toContain('{');
    expect(change(e)).not.toMatch(/[{}]/);
    // The same without any name looked up, and with no payload at all (an older event): still words.
    for (const bare of [e, { ...e, before: null, after: null }]) {
      expect(what(bare, {}).length).toBeGreaterThan(0);
      expect(what(bare, {})).not.toContain('{');
      expect(() => change(bare)).not.toThrow();
    }
  });
});

describe('the words', () => {
  it('values: written, changed, approved, deleted; the texts in their language', () => {
    const written = SAMPLES['translation.written'];
    expect(what({ ...written, before: null, after: { value: 'Hallo', status: 'draft' } })).toBe('wrote home.title (de)');
    expect(what(written)).toBe('changed the value of home.title (de)');
    expect(change(written)).toBe('"Hallo" (draft) → "Servus" (approved)');
    expect(summarizeChange({ ...written, entity_id: `${KEY}/ar` })).toContainEqual({ text: 'Servus', language: 'ar' });
    const approved = { ...written, after: { value: 'Hallo', status: 'approved' } };
    expect(what(approved)).toBe('approved home.title (de)');
    expect(what({ ...written, after: { value: 'Hallo', status: 'review' } })).toBe('sent home.title (de) to review');
    expect(what({ ...written, before: { value: 'Hallo', status: 'approved' }, after: { value: 'Hallo', status: 'draft' } })).toBe('set home.title (de) back to draft');
    expect(change({ ...written, before: null })).toBe('nothing → "Servus" (approved)');
    // A key not found (or not looked up) by the start of its id.
    expect(what(written, {})).toBe(`changed the value of ${KEY.slice(0, 8)} (de)`);
    expect(what(SAMPLES['translation.deleted'])).toBe('deleted the value of home.title (de)');
    expect(change(SAMPLES['translation.deleted'])).toBe('was "Hallo" (draft)');
    expect(what(SAMPLES['value.marked_up_to_date'])).toBe('marked home.title (de) up to date with its source text');
    expect(change(SAMPLES['value.marked_up_to_date'])).toBe('still "Hallo" (approved)');
    expect(what(SAMPLES['comment.added'])).toBe('commented on home.title (de)');
    expect(what(SAMPLES['comment.deleted'])).toBe('deleted a comment on home.title (de)');
    const own = { ...SAMPLES['comment.deleted'], before: { key_id: KEY, language: 'de', author_type: 'user', author_id: USER } };
    expect(what(own)).toBe('deleted their comment on home.title (de)');
    expect(what(SAMPLES['comment.resolved'])).toBe('resolved a comment on home.title (de)');
    expect(what(SAMPLES['comment.reopened'])).toBe('reopened their comment on home.title (de)');
    expect(change(SAMPLES['comment.resolved'])).toBe('');
    // What was said is not recorded: a deleted comment is gone from Activity too.
    expect(change(SAMPLES['comment.added'])).toBe('');
  });

  it('glossary terms: added, changed (what changed, translations by language), renamed, deleted', () => {
    expect(what(SAMPLES['term.added'])).toBe('added the glossary term Dashboard');
    expect(change(SAMPLES['term.added'])).toBe('translations: de "Übersicht", fr "Tableau de bord"');
    expect(summarizeChange(SAMPLES['term.added'])).toContainEqual({ text: 'Übersicht', language: 'de' });
    expect(change({ ...SAMPLES['term.added'], after: { term: 'Acme', translations: {} } })).toBe('no translations yet');
    expect(what(SAMPLES['term.updated'])).toBe('changed the glossary term Dashboard');
    expect(change(SAMPLES['term.updated'])).toBe('description: none → The start page; do not translate: no → yes; de: "Übersicht" → "Startseite"; es: none → "Panel"; fr: "Tableau de bord" → none');
    const renamed = event('term.updated', ['term', TERM], { term: 'Dashboard', case_sensitive: false }, { term: 'Overview', case_sensitive: true });
    expect(what(renamed)).toBe('renamed the glossary term Dashboard to Overview');
    expect(change(renamed)).toBe('case-sensitive: no → yes');
    expect(change(event('term.updated', ['term', TERM], { term: 'Dashboard' }, { term: 'Overview' }))).toBe('');
    expect(what(SAMPLES['term.deleted'])).toBe('deleted the glossary term Dashboard');
    expect(what(SAMPLES['glossary.imported'])).toBe('imported a glossary file (csv)');
    expect(change(SAMPLES['glossary.imported'])).toBe('12 terms added, 3 changed, 25 translations written');
    const one = event('glossary.imported', ['project', PROJECT], null, { format: 'tbx', terms_created: 1, terms_updated: 0, translations_written: 1 });
    expect([what(one), change(one)]).toEqual(['imported a glossary file (tbx)', '1 term added, 0 changed, 1 translation written']);
    expect(change(SAMPLES['term.deleted'])).toBe('');
    // Without a payload: by the start of its id.
    expect(what({ ...SAMPLES['term.deleted'], before: null })).toBe('deleted the glossary term deadbeef');
  });

  it('screenshots: uploaded (size, keys linked), changed (links counted, a rename), deleted', () => {
    expect(what(SAMPLES['screenshot.added'])).toBe('uploaded the screenshot Sign-in page');
    expect(describeEvent(SAMPLES['screenshot.added'])).toContainEqual({ name: 'Sign-in page' });
    expect(change(SAMPLES['screenshot.added'])).toBe('390 × 260 px; linked to 2 keys');
    expect(change({ ...SAMPLES['screenshot.added'], after: { name: 'Menu', width: 120, height: 80, keys: [] } })).toBe('120 × 80 px; no key linked yet');
    expect(what(SAMPLES['screenshot.updated'])).toBe('changed the screenshot Sign-in page');
    expect(change(SAMPLES['screenshot.updated'])).toBe('linked 2 keys, unlinked 1, moved 1 region; renamed from Sign-in');
    const unlinked = event('screenshot.updated', ['screenshot', SHOT], { name: 'Menu' }, { name: 'Menu', unlinked: [KEY] });
    expect([what(unlinked), change(unlinked)]).toEqual(['changed the screenshot Menu', 'unlinked 1 key']);
    const moved = event('screenshot.updated', ['screenshot', SHOT], { name: 'Menu' }, { name: 'Menu', moved: [KEY, KEY2] });
    expect(change(moved)).toBe('moved 2 regions');
    const renamed = event('screenshot.updated', ['screenshot', SHOT], { name: 'Menu' }, { name: 'Main menu' });
    expect([what(renamed), change(renamed)]).toEqual(['changed the screenshot Main menu', 'renamed from Menu']);
    expect(what(SAMPLES['screenshot.deleted'])).toBe('deleted the screenshot Sign-in page');
    expect(change(SAMPLES['screenshot.deleted'])).toBe('');
    // Without a payload (an older event): by the start of its id.
    expect(what({ ...SAMPLES['screenshot.deleted'], before: null })).toBe('deleted the screenshot 5c5c5c5c');
    expect(change({ ...SAMPLES['screenshot.updated'], before: null, after: null })).toBe('');
  });

  it('imports and Translate missing: what ran, with its counts', () => {
    expect(what(SAMPLES['translation.imported'])).toBe('imported a json file into de');
    expect(change(SAMPLES['translation.imported'])).toBe('3 new keys, 10 new values, 2 changed (as draft; 12 translation units)');
    const xliff = { ...SAMPLES['translation.imported'], after: { format: 'xliff', status: 'review', conflict: 'keep', keys_created: 1, values_created: 1, values_updated: 0, values_unchanged: 5, translation_units: 0 } };
    expect(what(xliff)).toBe('imported an xliff file into de');
    expect(change(xliff)).toBe('1 new key, 1 new value, 0 changed, 5 unchanged (as review; existing values kept)');
    expect(what(SAMPLES['translation.machine_translated'])).toBe('ran Translate missing for de');
    expect(change(SAMPLES['translation.machine_translated'])).toBe('5 values written as draft: 2 from translation memory, 3 from deepl; 3 translation units');
  });

  it('keys, groups and languages', () => {
    expect(what(SAMPLES['key.created'])).toBe('created key home.title');
    expect(describeEvent(SAMPLES['key.created'], {})).toContainEqual({ name: 'home.title' });
    expect(change(SAMPLES['key.created'])).toBe('in group home');
    expect(what(SAMPLES['key.updated'])).toBe('changed key home.title');
    expect(change(SAMPLES['key.updated'])).toBe('group: home → landing; description: none → The page title');
    expect(change(TAGS_EDITED)).toBe('group: home → landing; tags: mobile → mobile, release-2.3');
    // A bulk tagging names the key itself (after.key), also when it was deleted since.
    expect(what(TAGGED_IN_BULK, {})).toBe('changed the tags of key home.title');
    expect(change(TAGGED_IN_BULK)).toBe('tags: mobile → mobile, release-2.3');
    expect(change({ ...TAGGED_IN_BULK, before: { tags: ['mobile'] }, after: { key: 'home.title', tags: [] } })).toBe('tags: mobile → none');
    // The same tags on both sides (a group change through PATCH) say nothing of tags.
    expect(change({ ...TAGS_EDITED, after: { group_name: 'landing', description: null, tags: ['mobile'] } })).toBe('group: home → landing');
    expect(change({ ...SAMPLES['key.created'], after: { key: 'home.title', group_name: 'home', description: null, tags: ['mobile', 'release-2.3'] } })).toBe(
      'in group home; tags: mobile, release-2.3',
    );
    // A character limit set, changed, removed; events from before limits existed say nothing of them.
    const limited = { ...SAMPLES['key.updated'], before: { group_name: 'home', description: null, tags: [], max_length: null }, after: { group_name: 'home', description: null, tags: [], max_length: 30 } };
    expect(change(limited)).toBe('character limit: none → 30');
    expect(change({ ...limited, before: { ...limited.before, max_length: 30 }, after: { ...limited.after, max_length: 24 } })).toBe('character limit: 30 → 24');
    expect(change({ ...limited, before: { ...limited.before, max_length: 24 }, after: { ...limited.after, max_length: null } })).toBe('character limit: 24 → none');
    expect(change({ ...SAMPLES['key.created'], after: { key: 'home.title', group_name: 'home', description: null, tags: [], max_length: 30 } })).toBe('in group home; character limit: 30');
    expect(what(SAMPLES['key.deleted'], {})).toBe('deleted key home.title');
    expect(change(SAMPLES['key.deleted'])).toBe('from group home, moved to the trash');
    expect(what(SAMPLES['key.restored'])).toBe('restored key home.title from the trash');
    expect(what(SAMPLES['group.renamed'])).toBe('renamed group home to landing');
    expect(change(SAMPLES['group.renamed'])).toBe('3 keys');
    expect(what(SAMPLES['group.deleted'])).toBe('deleted group home');
    expect(change(SAMPLES['group.deleted'])).toBe('3 keys moved to the trash');
    expect(what(SAMPLES['language.added'])).toBe('added language fr');
    expect(change(SAMPLES['language.added'])).toBe('');
    expect(what(SAMPLES['language.removed'])).toBe('removed language fr');
    expect(change(SAMPLES['language.removed'])).toBe('12 values deleted');
  });

  it('settings: the fields changed, before and after; fallbacks as chains', () => {
    expect(what(SAMPLES['project.updated'])).toBe('changed the project settings: auto rebuild, fallbacks');
    expect(change(SAMPLES['project.updated'])).toBe('auto rebuild: off → on; fallbacks: de-AT → de → en (was: none)');
    // A language removal taking the language out of the chains (core/languages/remove-language.ts).
    const removal = event('project.updated', ['project', PROJECT], { fallbacks: { 'de-AT': ['de', 'en'] } }, { fallbacks: { 'de-AT': ['en'] } });
    expect(change(removal)).toBe('fallbacks: de-AT → en (was: de-AT → de → en)');
    const quality = event('project.updated', ['project', PROJECT], { source_language: 'en', quality_blocking: [] }, { source_language: 'de', quality_blocking: ['placeholders', 'plurals'] });
    expect(what(quality)).toBe('changed the project settings: source language, checks that block approval');
    expect(change(quality)).toBe('source language: en → de; checks that block approval: none → placeholders, plurals');
    expect(change(event('project.updated', ['project', PROJECT], { auto_rebuild: true }, { auto_rebuild: true }))).toBe('auto rebuild: on (unchanged)');
    expect(what(SAMPLES['project.created'])).toBe('created the project Shop');
    expect(change(SAMPLES['project.created'])).toBe('source language en; auto rebuild: on');
    expect(what(SAMPLES['account.updated'])).toBe('changed the account: plan, daily call limit');
    expect(change(SAMPLES['account.updated'])).toBe('plan: free → team; daily call limit: 1000 → none');
  });

  it('publishing', () => {
    expect(what(SAMPLES['cache.built'])).toBe('published the translations (cache built)');
    expect(change(SAMPLES['cache.built'])).toBe('everything up to request 6');
    expect(what(SAMPLES['cache.rebuild_requested'])).toBe('asked to publish the translations (cache rebuild queued)');
    expect(change(SAMPLES['cache.rebuild_requested'])).toBe('request 6');
  });

  it('API keys by name, with their scope; a key without one (or unknown) by the start of its id', () => {
    expect(what(SAMPLES['api_key.created'])).toBe('created API key “CI” (delivery)');
    expect(change(SAMPLES['api_key.created'])).toBe('delivery: cached reads only; languages de; from https://app.example.com');
    const live = { ...SAMPLES['api_key.created'], after: { kind: 'live', name: null, allowed_origins: null, allowed_languages: null } };
    expect(what(live)).toBe('created API key aaaaaaaa (live)');
    expect(change(live)).toBe('live: full access');
    expect(what(SAMPLES['api_key.revoked'])).toBe('revoked API key “CI”');
    expect(what(SAMPLES['api_key.revoked'], {})).toBe('revoked API key aaaaaaaa');

    const byKey = { actor_type: 'api_key', actor_id: API_KEY, actor_email: null };
    expect(actorLabel(byKey, names.apiKeys)).toBe('API key “CI”');
    expect(actorLabel(byKey, { [API_KEY]: null })).toBe('API key aaaaaaaa');
    expect(actorLabel(byKey)).toBe('API key aaaaaaaa');
    expect(actorLabel({ actor_type: 'user', actor_id: USER, actor_email: 'dev@example.com' })).toBe('dev@example.com');
    expect(actorLabel({ actor_type: 'user', actor_id: USER, actor_email: null })).toBe('a removed user');
    expect(actorLabel({ actor_type: 'admin', actor_id: null, actor_email: null })).toBe('the operator (admin token)');
    expect(actorLabel({ actor_type: 'system', actor_id: 'builder', actor_email: null })).toBe('tms (builder)');
  });

  it('members and webhooks', () => {
    // First-owner setup (the admin token), an accepted invitation (the new member's own act).
    expect(what(SAMPLES['member.added'], {})).toBe('added owner@example.com as owner');
    expect(change(SAMPLES['member.added'])).toBe('at setup');
    const accepted = event('member.added', ['member', USER], null, { email: 'new@example.com', role: 'translator', languages: ['de', 'fr'], invite_id: KEY });
    expect(what(accepted)).toBe('joined the account as translator for de, fr');
    expect(change(accepted)).toBe('through an invitation');
    expect(what(SAMPLES['member.invited'])).toBe('invited someone as reviewer');
    expect(change(SAMPLES['member.invited'])).toBe('the link works until 2030-01-08 10:00 UTC');
    expect(what(SAMPLES['member.invite_revoked'])).toBe('revoked an unused invitation (reviewer)');
    expect(what(SAMPLES['member.updated'])).toBe("changed a member's role to owner");
    expect(change(SAMPLES['member.updated'])).toBe('translator for de → owner');
    expect(what(SAMPLES['member.removed'])).toBe('removed a member (developer)');
    // The account's own log (the Members page) knows its members' emails.
    const members = { members: { [KEY]: 'tr@example.com' } };
    expect(what(SAMPLES['member.updated'], members)).toBe('changed the role of tr@example.com to owner');
    expect(what(SAMPLES['member.removed'], members)).toBe('removed tr@example.com (developer)');

    // A url may be its own credential: only its host is shown (and the endpoint's id, to tell two apart).
    expect(what(SAMPLES['webhook.created'])).toBe('registered webhook hooks.example.com (abcdef01)');
    expect(change(SAMPLES['webhook.created'])).toBe('events: translation.written, cache.built');
    expect(what(SAMPLES['webhook.updated'])).toBe('turned off webhook hooks.example.com (abcdef01)');
    expect(change(SAMPLES['webhook.updated'])).toBe('turned off');
    const moved = { ...SAMPLES['webhook.updated'], after: { url: 'https://new.example.com/in', events: ['cache.built', 'key.created'], description: null, enabled: true } };
    expect(what(moved)).toBe('changed webhook new.example.com (abcdef01)');
    expect(change(moved)).toBe('url: hooks.example.com → new.example.com; events: cache.built, key.created');
    const rotated = { ...moved, after: { ...moved.after, url: 'https://hooks.example.com/services/T01/B02/new-token' } };
    expect(change(rotated)).toBe('url changed (same host, hooks.example.com); events: cache.built, key.created');
    for (const e of [...Object.values(SAMPLES), moved, rotated]) expect(`${what(e)} ${change(e)}`).not.toContain('token');
    expect(what(SAMPLES['webhook.deleted'], {})).toBe('deleted webhook hooks.example.com (abcdef01)');
    expect(what(SAMPLES['webhook.replayed'])).toBe('sent a message of webhook hooks.example.com (abcdef01) again');
    expect(change(SAMPLES['webhook.replayed'])).toBe('delivery 41 queued again');
    expect(what(SAMPLES['webhook.disabled'], {})).toBe('turned off webhook abcdef01, which kept failing');
    expect(change(SAMPLES['webhook.disabled'])).toBe('failing since 2024-01-01 00:00 UTC');
  });

  it('an unknown (future) type: named by its type, its plain fields as words, never a crash', () => {
    const future = event('glossary.term_added', ['glossary', 'checkout'], null, { term: 'Warenkorb', nested: { a: 1 }, count: 2 });
    expect(what(future)).toBe('glossary.term_added checkout');
    expect(change(future)).toBe('term: Warenkorb, count: 2');
    expect(what(event('translation.written', ['translation', 'no-slash'], null, 'odd'))).toBe('translation.written no-slash');
    expect(() => change(event('project.updated', ['project', PROJECT], 'x', 7))).not.toThrow();
  });
});
