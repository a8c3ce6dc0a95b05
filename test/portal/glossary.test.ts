// The Glossary tab (docs/portal.md, "Glossary") and the editor's glossary hints, through HTTP as
// signed-in members: the list (a column per language but the source, badges, a muted dash), search
// and pages of 100; the Add, Edit and Delete forms (Post/Redirect/Get with a notice, a double click
// adding once, an Edit writing only what was changed from what the page showed, an emptied
// translation removed); refusals at their field with what was typed kept, never a 5xx and never half
// a change; who may (glossary.manage, a limited membership's own languages); another project's term
// is a 404; the hints under a key's source text (whole words, case as the term says, one statement
// for the page); forbidden terms (the Forbidden checkbox, its badge, with Do not translate a word not
// to use in any language, the editor's "do not use" hint and the Forbidden term warning); and the
// Activity line.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { decode, formFields } from './support/form-fields.ts';
import { counted } from './support/page-costs.ts';
import { createTerm } from '../../core/glossary/create-term.ts';
import { updateTerm } from '../../core/glossary/update-term.ts';
import { getTerm } from '../../core/glossary/get-term.ts';
import type { GlossaryTerm } from '../../core/glossary/schemas.ts';

const t = useTestApp();
let p: TestProject;
let owner: PortalClient;
let translator: PortalClient;

let n = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${n++}`;

const glossary = (project: TestProject = p) => `/portal/projects/${project.projectId}/glossary`;
const apiActor = (project: TestProject = p) => ({ type: 'api_key' as const, id: project.apiKeyId });
const termRow = async (id: string) => (await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from glossary_terms where id = ${id}`)[0]!.n;
const termsOf = async (project: TestProject = p) =>
  t.runtime.deps.sql<{ term: string }[]>`select term from glossary_terms where project_id = ${project.projectId} order by term_folded collate "C"`;
const stored = (id: string, project: TestProject = p): Promise<GlossaryTerm> => getTerm(t.runtime.deps, { projectId: project.projectId, termId: id });
const add = (term: string, more: Partial<Pick<GlossaryTerm, 'description' | 'case_sensitive' | 'translatable' | 'forbidden' | 'translations'>> = {}, project: TestProject = p) =>
  createTerm(t.runtime.deps, { projectId: project.projectId, actor: apiActor(project), term, ...more });

/** The fields a browser sends with the form posting to `action`: its inputs and textareas, checkboxes only when ticked. */
function browserFields(html: string, action: string): Record<string, string> {
  const fields = formFields(html, action);
  const form = formOf(html, action);
  for (const [tag] of form.matchAll(/<input type="checkbox"[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(tag)![1]!;
    if (!/\bchecked\b/.test(tag)) delete fields[name];
  }
  return fields;
}

/** The first <form> posting to `action`, as HTML. */
function formOf(html: string, action: string): string {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `no form posting to ${action}`).toBeGreaterThan(-1);
  return html.slice(html.lastIndexOf('<form', at), html.indexOf('</form>', at));
}

/** The table's rows: each term's cells as text (tags removed, entities decoded), without the Edit and Delete forms' cell. */
function rows(html: string): string[][] {
  const body = /<tbody>([^]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr data-term="[^"]+">([^]*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<t[hd][^>]*>([^]*?)<\/t[hd]>/g)]
      .filter((c) => !/<details|<form/.test(c[1]!))
      .map((c) => decode(c[1]!.replace(/<[^>]+>/g, '')).trim()),
  );
}

beforeAll(async () => {
  p = await t.newProject('team');
  // en first: the project's source language; de and fr are the glossary's columns.
  for (const code of ['en', 'de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  owner = await signedInMember(t, p.accountId, 'owner');
  translator = await signedInMember(t, p.accountId, 'translator');
});

describe('the Glossary tab', () => {
  it('lists the terms with a column per language but the source, badges, and a muted dash for none; every role sees it', async () => {
    const acme = await add(unique('Acme'), { translatable: false, description: 'Our brand' });
    const word = await add(unique('Checkout'), { case_sensitive: true, translations: { de: 'Kasse' } });
    const page = await translator.get(glossary());
    expect(page.status).toBe(200);
    // The tab, after Languages, for a translator too.
    expect(page.text).toMatch(/>Languages<\/a><a href="\/portal\/projects\/[^"]+\/glossary" aria-current="page" class="tab active">Glossary<\/a>/);
    expect(page.text).toContain('<th scope="col">de</th><th scope="col">fr</th>');
    expect(page.text).not.toContain('<th scope="col">en</th>');
    const shown = rows(page.text);
    expect(shown).toContainEqual([`${acme.term} do not translate`, 'Our brand', 'as written', 'as written']);
    expect(shown).toContainEqual([`${word.term} case-sensitive`, '—no description', 'Kasse', '—no translation']);
    expect(page.text).toContain('<span lang="de" dir="ltr">Kasse</span>');
    // Read only: no form to add, edit or delete.
    expect(page.text).not.toContain('Add a term');
    expect(page.text).not.toContain(`action="${glossary()}/${word.id}"`);
    expect(page.text).not.toContain('/delete"');
    // The editor's tabs have it too.
    expect((await translator.get(`/portal/projects/${p.projectId}`)).text).toContain('>Glossary</a>');
  });

  it('searches spellings and translations, case folded; a search that cannot be one is said at its field (422, not 500)', async () => {
    const prefix = unique('srch');
    await add(`${prefix} Dashboard`, { translations: { de: 'Übersicht' } });
    await add(`${prefix} Settings`, { translations: { de: 'Einstellungen' } });
    const byTranslation = await owner.get(`${glossary()}?q=${encodeURIComponent('ÜBERSICHT')}`);
    expect(rows(byTranslation.text).map((r) => r[0])).toEqual([`${prefix} Dashboard`]);
    expect(byTranslation.text).toContain('1 term matches “ÜBERSICHT”');
    expect(byTranslation.text).toMatch(/<input type="search" name="q" value="ÜBERSICHT"/);
    const bySpelling = await owner.get(`${glossary()}?q=${encodeURIComponent(prefix.toUpperCase())}`);
    expect(rows(bySpelling.text).map((r) => r[0])).toEqual([`${prefix} Dashboard`, `${prefix} Settings`]);
    expect((await owner.get(`${glossary()}?q=${prefix}zzz`)).text).toContain('No term matches this search.');
    for (const q of ['a\u0000b', 'x'.repeat(5_000)]) {
      const refused = await owner.get(`${glossary()}?q=${encodeURIComponent(q)}`);
      expect(refused.status).toBe(422);
      expect(refused.text).toMatch(/aria-invalid="true" aria-describedby="problem-glossary-search-q"/);
      expect(refused.text).toContain('id="problem-glossary-search-q">Not searched: q must');
    }
  });

  it('pages 100 terms at a time with Next page, each term once; a page link that was changed shows the first page', async () => {
    const big = await t.newProject('team');
    for (const code of ['en', 'de']) expect((await t.call(big.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    await t.runtime.deps.sql`
      insert into glossary_terms (project_id, term, term_folded)
      select ${big.projectId}::uuid, 'Term ' || lpad(i::text, 3, '0'), 'term ' || lpad(i::text, 3, '0') from generate_series(1, 230) i`;
    const dev = await signedInMember(t, big.accountId, 'developer');
    const seen: string[] = [];
    let path: string | undefined = glossary(big);
    const sizes: number[] = [];
    while (path) {
      const res = await dev.get(path);
      expect(res.status).toBe(200);
      const names = rows(res.text).map((r) => r[0]!);
      sizes.push(names.length);
      seen.push(...names);
      expect(res.text).toContain('230 terms');
      const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(res.text)?.[1];
      path = next && decode(next);
      if (path) expect(path).toContain('cursor=');
    }
    expect(sizes).toEqual([100, 100, 30]);
    expect(seen).toEqual(Array.from({ length: 230 }, (_, i) => `Term ${String(i + 1).padStart(3, '0')}`));
    const changed = await dev.get(`${glossary(big)}?cursor=bm90LWEtY3Vyc29y`);
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('That page link is not valid any more');
    expect(rows(changed.text)[0]![0]).toBe('Term 001');
  });
});

describe('adding a term', () => {
  it('adds it from the form (Post/Redirect/Get, a notice), with its translations; sent twice, it adds once', async () => {
    const term = unique('Dashboard');
    const page = await owner.get(glossary());
    const fields: Record<string, string> = { ...browserFields(page.text, glossary()), term: ` ${term} `, description: 'The start page\r\nafter sign-in', translation_de: 'Übersicht', case_sensitive: 'yes' };
    expect(fields.submission).toMatch(/^[0-9a-f-]{36}$/);
    expect(fields.translation_fr).toBe('');
    const res = await owner.post(glossary(), fields);
    expect(res.status).toBe(303);
    const shown = await owner.follow(res);
    expect(shown.text).toContain(`Added the term ${term}.`);
    const [row] = await t.runtime.deps.sql<{ id: string }[]>`select id from glossary_terms where project_id = ${p.projectId} and term = ${term}`;
    const created = await stored(row!.id);
    expect(created).toMatchObject({ term, description: 'The start page\nafter sign-in', case_sensitive: true, translatable: true, translations: { de: 'Übersicht' } });
    // A reload shows the page again; the same form sent again (a double click) adds nothing.
    expect((await owner.get(shown.headers.get('location') ?? res.location!)).status).toBe(200);
    const again = await owner.follow(await owner.post(glossary(), fields));
    expect(again.text).toContain(`This form was already sent: the term ${term} was added once.`);
    expect((await termsOf()).filter((r) => r.term === term)).toHaveLength(1);
  });

  it('a spelling the glossary has (in any case) is the 409 at the term field, what was typed kept, nothing added', async () => {
    const existing = await add(unique('Invoice'));
    const page = await owner.get(glossary());
    const before = (await termsOf()).length;
    const res = await owner.post(glossary(), { ...browserFields(page.text, glossary()), term: existing.term.toUpperCase(), description: 'typed', translation_fr: 'Facture', do_not_translate: 'yes' });
    expect(res.status).toBe(409);
    const form = formOf(res.text, glossary());
    expect(form).toMatch(new RegExp(`<input name="term" required="" maxlength="400" value="${existing.term.toUpperCase()}" lang="en" dir="ltr" aria-invalid="true" aria-describedby="problem-term-new-term"/>`));
    expect(form).toContain(`<p class="field-error" id="problem-term-new-term">The glossary already has the term &#39;${existing.term.toUpperCase()}&#39;`);
    expect(form).toMatch(/<textarea name="description"[^>]*>typed<\/textarea>/);
    expect(form).toMatch(/name="translation_fr"[^>]*value="Facture"/);
    expect(form).toMatch(/<input type="checkbox" name="do_not_translate" value="yes" checked=""/);
    expect(form).not.toMatch(/name="case_sensitive" value="yes" checked/);
    // The form is open again, and the page says it at the top too.
    expect(res.text).toMatch(/<details class="card" open="">\s*<summary>Add a term<\/summary>/);
    expect(res.text).toContain('role="alert">Not added: The glossary already has the term');
    expect((await termsOf()).length).toBe(before);
  });

  it('refuses bad input at its field with what was typed kept, 4xx and never a 5xx, adding nothing', async () => {
    const page = await owner.get(glossary());
    const base = browserFields(page.text, glossary());
    const before = (await termsOf()).length;
    const cases: { fields: Record<string, string>; field: string; says: RegExp }[] = [
      { fields: { term: 'x'.repeat(5_000) }, field: 'term', says: /term must be at most 200 characters/ },
      { fields: { term: '   ' }, field: 'term', says: /term must be at least 1 character/ },
      { fields: { term: 'a\u0000b' }, field: 'term', says: /term must not contain NUL characters/ },
      { fields: { term: unique('Ok'), description: 'd\u0000' }, field: 'description', says: /description must not contain NUL/ },
      { fields: { term: unique('Ok'), description: 'd'.repeat(1_001) }, field: 'description', says: /description must be at most 1,000 characters/ },
      { fields: { term: unique('Ok'), translation_fr: 'f'.repeat(201) }, field: 'translation_fr', says: /translation must be at most 200 characters/ },
      { fields: { term: unique('Ok'), translation_de: 'Zeile\nzwei' }, field: 'translation_de', says: /translation must not contain control characters/ },
    ];
    for (const c of cases) {
      const res = await owner.post(glossary(), { ...base, ...c.fields });
      expect(res.status, JSON.stringify(c.fields).slice(0, 80)).toBe(422);
      const problem = new RegExp(`<p class="field-error" id="problem-term-new-${c.field}">([^<]*)</p>`).exec(res.text)?.[1];
      expect(decode(problem ?? ''), c.field).toMatch(c.says);
      expect(res.text).toContain(`aria-describedby="problem-term-new-${c.field}"`);
    }
    // The typed text stays in its field (here, the long translation).
    const long = await owner.post(glossary(), { ...base, term: 'Kept', translation_fr: 'f'.repeat(201) });
    expect(formOf(long.text, glossary())).toContain(`value="${'f'.repeat(201)}"`);
    expect(formOf(long.text, glossary())).toContain('value="Kept"');
    // No field at all, and a language that is not one (a page from before it was removed, a made-up form).
    expect((await owner.post(glossary(), {})).status).toBe(422);
    const unknown = await owner.post(glossary(), { ...base, term: unique('Ok'), translation_xx: 'Hm' });
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain('xx: xx is not one of the project&#39;s languages');
    const notACode = await owner.post(glossary(), { ...base, term: unique('Ok'), 'translation_not a code': 'x' });
    expect(notACode.status).toBe(422);
    expect(notACode.text).toContain('not a code: translations are keyed by language codes');
    expect((await termsOf()).length).toBe(before);
  });
});

describe('editing a term', () => {
  it('writes only what was changed from what the page showed: an emptied translation is removed, a colleague’s change elsewhere stays', async () => {
    const term = await add(unique('Cart'), { description: 'Where items wait', translations: { de: 'Warenkorb', fr: 'Panier' } });
    const page = await owner.get(glossary());
    const action = `${glossary()}/${term.id}`;
    const fields = browserFields(page.text, action);
    expect(fields).toMatchObject({ term: term.term, term_was: term.term, description_was: 'Where items wait', translation_de: 'Warenkorb', translation_de_was: 'Warenkorb', translation_fr_was: 'Panier' });
    expect(fields.case_sensitive).toBeUndefined();
    // A colleague changes the description after the page was loaded.
    await updateTerm(t.runtime.deps, { projectId: p.projectId, actor: apiActor(), termId: term.id, description: 'Their description' });
    const res = await owner.post(action, { ...fields, translation_de: 'Einkaufswagen', translation_fr: ' ', do_not_translate: 'yes' });
    expect(res.status).toBe(303);
    expect((await owner.follow(res)).text).toContain(`Saved the term ${term.term}.`);
    expect(await stored(term.id)).toMatchObject({ term: term.term, description: 'Their description', translatable: false, case_sensitive: false, translations: { de: 'Einkaufswagen' } });
    const [event] = await t.runtime.deps.sql<{ before: Record<string, unknown>; after: Record<string, unknown> }[]>`
      select before, after from domain_events where entity_id = ${term.id} and type = 'term.updated' and actor_type = 'user'`;
    expect(event!.after).toEqual({ term: term.term, translatable: false, translations: { de: 'Einkaufswagen' } });

    // Sent as shown: nothing to save, nothing recorded.
    const now = await owner.get(glossary());
    const unchanged = await owner.follow(await owner.post(action, browserFields(now.text, action)));
    expect(unchanged.text).toContain(`Nothing to save: the term ${term.term} is as it was.`);
    const [updates] = await t.runtime.deps.sql<{ n: number }[]>`select count(*)::int as n from domain_events where entity_id = ${term.id} and type = 'term.updated'`;
    expect(updates!.n).toBe(2);
    // Its Edit form shows the flag as stored (ticked), and un-ticking it is a change.
    const form = formOf(now.text, action);
    expect(form).toMatch(/name="do_not_translate" value="yes" checked=""/);
    const untick = browserFields(now.text, action);
    delete untick.do_not_translate;
    await owner.post(action, untick);
    expect((await stored(term.id)).translatable).toBe(true);
  });

  it('a rename to a spelling the glossary has is the 409 at its term field, the form open with what was typed; nothing half-written', async () => {
    const taken = await add(unique('Order'));
    const term = await add(unique('Basket'), { translations: { de: 'Korb' } });
    const page = await owner.get(glossary());
    const action = `${glossary()}/${term.id}`;
    const res = await owner.post(action, { ...browserFields(page.text, action), term: taken.term.toLowerCase(), translation_de: 'Neuer Korb', description: 'typed' });
    expect(res.status).toBe(409);
    const form = formOf(res.text, action);
    expect(form).toContain(`value="${taken.term.toLowerCase()}"`);
    expect(form).toContain(`aria-describedby="problem-term-${term.id}-term"`);
    expect(form).toContain(`<p class="field-error" id="problem-term-${term.id}-term">The glossary already has the term`);
    expect(form).toMatch(/name="translation_de"[^>]*value="Neuer Korb"/);
    expect(form).toMatch(/<textarea name="description"[^>]*>typed<\/textarea>/);
    // The form still names what the page showed, so sending it again writes only the changes.
    expect(form).toContain(`name="term_was" value="${term.term}"`);
    expect(res.text).toMatch(new RegExp(`<details open="">\\s*<summary class="hint">Edit<span class="sr-only"> the term ${term.term}</span>`));
    // Neither the translation nor the description was written with the refused spelling.
    expect(await stored(term.id)).toMatchObject({ term: term.term, description: '', translations: { de: 'Korb' } });

    // Too long, and a NUL, at their fields; still nothing written.
    for (const [field, value] of [['term', 'x'.repeat(5_000)], ['translation_fr', 'a\u0000b']] as const) {
      const refused = await owner.post(action, { ...browserFields(page.text, action), [field]: value, translation_de: 'Neu' });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain(`id="problem-term-${term.id}-${field}"`);
    }
    expect((await stored(term.id)).translations).toEqual({ de: 'Korb' });
  });

  it('a term of another project, an unknown id or an id that is none is a 404 page, for Edit and Delete alike; nothing changes', async () => {
    const other = await t.newProject('team');
    const theirs = await add(unique('Theirs'), {}, other);
    const ids = [theirs.id, theirs.id.toUpperCase(), '00000000-0000-4000-8000-000000000000', 'not-a-uuid', `${theirs.id}x`, '%00'];
    for (const id of ids) {
      const edit = await owner.post(`${glossary()}/${id}`, { term: 'Mine now', term_was: theirs.term });
      expect(edit.status, id).toBe(404);
      expect(edit.text).toContain('Not found');
      expect((await owner.post(`${glossary()}/${id}/delete`)).status, id).toBe(404);
    }
    expect(await stored(theirs.id, other)).toMatchObject({ term: theirs.term });
    expect(await termRow(theirs.id)).toBe(1);
    // Nothing changed, but the term is not there: 404 too.
    expect((await owner.post(`${glossary()}/${theirs.id}`, { term: theirs.term, term_was: theirs.term })).status).toBe(404);
  });

  it('translations in a removed language: gone with it; an Edit from before that changes one is refused whole, one that empties it saves the rest', async () => {
    const project = await t.newProject('team');
    for (const code of ['en', 'de', 'it']) expect((await t.call(project.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    const dev = await signedInMember(t, project.accountId, 'developer');
    const term = await add('Gallery', { translations: { de: 'Galerie', it: 'Galleria' } }, project);
    const page = await dev.get(glossary(project));
    const action = `${glossary(project)}/${term.id}`;
    const fields = browserFields(page.text, action);
    expect((await t.call(project.apiKey, 'DELETE', '/v1/languages/it')).status).toBe(200);
    expect((await stored(term.id, project)).translations).toEqual({ de: 'Galerie' });
    const now = await dev.get(glossary(project));
    expect(now.text).not.toContain('<th scope="col">it</th>');
    expect(rows(now.text)).toEqual([['Gallery', '—no description', 'Galerie']]);

    const refused = await dev.post(action, { ...fields, translation_de: 'Bildergalerie', translation_it: 'Galleria nuova' });
    expect(refused.status).toBe(422);
    // Its field is not on the page any more: said at the top of the form.
    expect(formOf(refused.text, action)).toContain('it: it is not one of the project&#39;s languages');
    expect((await stored(term.id, project)).translations).toEqual({ de: 'Galerie' });

    const saved = await dev.post(action, { ...fields, translation_de: 'Bildergalerie', translation_it: '' });
    expect(saved.status).toBe(303);
    expect((await stored(term.id, project)).translations).toEqual({ de: 'Bildergalerie' });
  });
});

describe('deleting a term', () => {
  it('deletes it and its translations after a confirmation, saying so; the Activity says each step in words', async () => {
    const term = await add(unique('Wishlist'), { translations: { de: 'Wunschzettel' } });
    const page = await owner.get(glossary());
    const action = `${glossary()}/${term.id}/delete`;
    expect(page.text).toContain(`action="${action}" data-confirm="Delete the glossary term ${term.term} and its translations? This cannot be undone."`);
    expect(page.text).toContain(`aria-label="Delete the term ${term.term}"`);
    const res = await owner.post(action, browserFields(page.text, action));
    expect(res.status).toBe(303);
    expect((await owner.follow(res)).text).toContain(`Deleted the term ${term.term}.`);
    expect(await termRow(term.id)).toBe(0);
    expect((await owner.post(action)).status).toBe(404);

    // Added through the form, changed, deleted: the Activity's words.
    const name = unique('Profile');
    const form = await owner.get(glossary());
    await owner.post(glossary(), { ...browserFields(form.text, glossary()), term: name, translation_de: 'Profil' });
    const [row] = await t.runtime.deps.sql<{ id: string }[]>`select id from glossary_terms where project_id = ${p.projectId} and term = ${name}`;
    const edit = `${glossary()}/${row!.id}`;
    const shown = await owner.get(glossary());
    await owner.post(edit, { ...browserFields(shown.text, edit), term: `${name} page`, translation_fr: 'Profil' });
    await owner.post(`${edit}/delete`);
    const activity = decode((await owner.get(`/portal/projects/${p.projectId}/activity`)).text.replace(/<[^>]+>/g, ''));
    expect(activity).toContain(`added the glossary term ${name}`);
    expect(activity).toContain('translations: de "Profil"');
    expect(activity).toContain(`renamed the glossary term ${name} to ${name} page`);
    expect(activity).toContain('fr: none → "Profil"');
    expect(activity).toContain(`deleted the glossary term ${name} page`);
    expect(activity).toContain(`added the glossary term ${term.term}`);
  });
});

describe('who may change the glossary', () => {
  it('a translator is refused (403) on every form, and nothing is written', async () => {
    const term = await add(unique('Locked'), { translations: { de: 'Gesperrt' } });
    const before = (await termsOf()).length;
    expect((await translator.post(glossary(), { term: unique('Nope') })).status).toBe(403);
    expect((await translator.post(`${glossary()}/${term.id}`, { term: 'Changed', term_was: term.term })).status).toBe(403);
    expect((await translator.post(`${glossary()}/${term.id}/delete`)).status).toBe(403);
    expect((await termsOf()).length).toBe(before);
    expect(await stored(term.id)).toMatchObject({ term: term.term, translations: { de: 'Gesperrt' } });
  });

  it("a reviewer may; one limited to de changes de's translations only (fr read only, 403 when sent)", async () => {
    const reviewer = await signedInMember(t, p.accountId, 'reviewer', { languages: ['de'] });
    const term = await add(unique('Label'), { translations: { fr: 'Étiquette' } });
    const page = await reviewer.get(glossary());
    const action = `${glossary()}/${term.id}`;
    expect(formOf(page.text, action)).toMatch(/name="translation_fr"[^>]*value="Étiquette" readonly=""/);
    expect(formOf(page.text, action)).toContain('read only: not one of your languages');
    const fields = browserFields(page.text, action);
    expect((await reviewer.post(action, { ...fields, translation_fr: 'Libellé' })).status).toBe(403);
    expect((await reviewer.post(action, { ...fields, translation_de: 'Beschriftung', description: 'On buttons' })).status).toBe(303);
    expect(await stored(term.id)).toMatchObject({ description: 'On buttons', translations: { de: 'Beschriftung', fr: 'Étiquette' } });
    // Deleting would delete the fr translation too; adding one in fr is refused likewise.
    expect((await reviewer.post(`${action}/delete`)).status).toBe(403);
    const form = browserFields(page.text, glossary());
    expect((await reviewer.post(glossary(), { ...form, term: unique('New'), translation_fr: 'Nouveau' })).status).toBe(403);
    const added = await reviewer.post(glossary(), { ...form, term: unique('New'), translation_de: 'Neu' });
    expect(added.status).toBe(303);
    const mine = await add(unique('Mine'), { translations: { de: 'Meins' } });
    expect((await reviewer.post(`${glossary()}/${mine.id}/delete`)).status).toBe(303);
  });
});

describe('glossary hints in the editor', () => {
  it("shows a key's terms under its source text (whole words, case as the term says), the translations of the shown languages, in one statement for the page", async () => {
    const project = await t.newProject('team');
    for (const code of ['en', 'de', 'fr']) expect((await t.call(project.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    const dev = await signedInMember(t, project.accountId, 'developer');
    const key = async (name: string, source: string) => {
      const { id } = (await (await t.call(project.apiKey, 'POST', '/v1/keys', { key: name })).json()) as { id: string };
      expect((await t.call(project.apiKey, 'PUT', `/v1/keys/${id}/translations/en`, { value: source })).status).toBe(200);
      return id;
    };
    await add('Dashboard', { translations: { de: 'Übersicht', fr: 'Tableau de bord' }, description: 'The start page' }, project);
    await add('Acme', { translatable: false }, project);
    await add('Apple', { case_sensitive: true, translations: { de: 'Apple' } }, project);
    await add('Wi-Fi', { translations: { de: 'WLAN' }, description: 'x'.repeat(300) }, project);
    await add('Settings', {}, project);
    const open = await key('a.open', 'Open the dashboard of Acme');
    const plural = await key('b.plural', 'All Dashboards');
    const fruit = await key('c.fruit', 'An apple a day');
    const brand = await key('d.brand', 'Pay with Apple Pay over Wi-Fi');
    const settings = await key('e.settings', 'Settings');

    const measured = await counted(t, () => dev.get(`/portal/projects/${project.projectId}?lang=en&lang=de`));
    const html = measured.result.text;
    expect(measured.result.status).toBe(200);
    // One statement reads the terms of the page's source texts; and one index probe reads the
    // project's forbidden terms (readForbiddenWords, for the forbidden_terms check): never one per key.
    const probe = /from glossary_terms t where t\.project_id = \$\d+ and t\.forbidden\b/;
    const termsOfTexts = (statements: string[]) => statements.filter((s) => /from glossary_terms/.test(s) && !probe.test(s));
    const forbiddenProbes = (statements: string[]) => statements.filter((s) => probe.test(s));
    expect(termsOfTexts(measured.statements)).toHaveLength(1);
    expect(forbiddenProbes(measured.statements)).toHaveLength(1);
    const hints = (id: string) => {
      const block = new RegExp(`<div class="hint changes" id="gl-${id}">([^]*?)</div>`).exec(html)?.[1];
      return block === undefined ? null : decode(block.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    };
    expect(hints(open)).toBe('Glossary Acme : do not translate Dashboard → Übersicht (de) — The start page');
    expect(html).toContain(`<ul aria-labelledby="gl-${open}-label">`);
    expect(html).toContain('<strong lang="en" dir="ltr">Dashboard</strong> → <span lang="de" dir="ltr">Übersicht</span> (de)');
    // "Dashboard" is not in "Dashboards"; the case-sensitive "Apple" is not in "apple".
    expect(hints(plural)).toBeNull();
    expect(hints(fruit)).toBeNull();
    // A long description is cut, and whole in the line's title; a term with no translation in the shown languages is left out.
    expect(hints(brand)).toMatch(/^Glossary Apple → Apple \(de\) Wi-Fi → WLAN \(de\) — x+…$/);
    expect(html).toContain(`title="${'x'.repeat(300)}"`);
    expect(hints(settings)).toBeNull();
    // Read with the field being translated, not with the source's own.
    expect(html).toMatch(new RegExp(`id="v-${open}-de"[^>]*aria-describedby="[^"]* gl-${open}"`));
    expect(html).not.toMatch(new RegExp(`id="v-${open}-en"[^>]*aria-describedby="[^"]*gl-${open}`));

    // With fr shown too: both translations; without the source language shown: under the key.
    const both = await dev.get(`/portal/projects/${project.projectId}?lang=en&lang=de&lang=fr&q=a.open`);
    expect(decode(both.text)).toContain('→ <span lang="de" dir="ltr">Übersicht</span> (de), <span lang="fr" dir="ltr">Tableau de bord</span> (fr)');
    const keyCell = await dev.get(`/portal/projects/${project.projectId}?lang=de&q=a.open`);
    expect(keyCell.text).toMatch(/<th scope="row" class="keycell">[^]*?<div class="hint changes" id="gl-[^"]+">[^]*?<\/th>/);

    // A page without source texts reads no terms of texts; only the forbidden terms' index probe.
    const empty = await counted(t, () => owner.get(`/portal/projects/${p.projectId}?lang=de`));
    expect(termsOfTexts(empty.statements)).toHaveLength(0);
    expect(forbiddenProbes(empty.statements)).toHaveLength(1);
  });
});

describe('forbidden terms', () => {
  it('adds a forbidden term from the form (Forbidden ticked): stored forbidden; its row says so in words, and its translations are words not to use', async () => {
    const term = unique('Login');
    const page = await owner.get(glossary());
    const form = formOf(page.text, glossary());
    expect(form).toMatch(/<label><input type="checkbox" name="forbidden" value="yes"\/> Forbidden \(a word not to use\) <span class="hint">/);
    const res = await owner.post(glossary(), { ...browserFields(page.text, glossary()), term, translation_de: 'Einloggen', forbidden: 'yes' });
    expect(res.status).toBe(303);
    expect((await owner.follow(res)).text).toContain(`Added the term ${term}.`);
    const [row] = await t.runtime.deps.sql<{ id: string }[]>`select id from glossary_terms where project_id = ${p.projectId} and term = ${term}`;
    expect(await stored(row!.id)).toMatchObject({ term, forbidden: true, translatable: true, translations: { de: 'Einloggen' } });
    // The API says it too.
    const listed = (await (await t.call(p.apiKey, 'GET', `/v1/glossary?q=${encodeURIComponent(term)}`)).json()) as { terms: GlossaryTerm[] };
    expect(listed.terms.map((x) => [x.term, x.forbidden])).toEqual([[term, true]]);

    const shown = await owner.get(`${glossary()}?q=${encodeURIComponent(term)}`);
    expect(rows(shown.text)).toEqual([[`${term} Forbidden: do not use`, '—no description', 'Einloggen (do not use)', '—no translation']]);
    expect(shown.text).toContain('<span class="badge warn">Forbidden: do not use</span>');
    // Its Edit form shows the box ticked, and what it showed.
    const edit = formOf(shown.text, `${glossary()}/${row!.id}`);
    expect(edit).toMatch(/name="forbidden" value="yes" checked=""/);
    expect(edit).toContain('name="forbidden_was" value="yes"');
    // A term that is not forbidden has no such badge, and the box unticked (the form added without it stores false).
    const plain = unique('Logout');
    await owner.post(glossary(), { ...browserFields(page.text, glossary()), term: plain, submission: crypto.randomUUID() });
    const plainPage = await owner.get(`${glossary()}?q=${encodeURIComponent(plain)}`);
    expect(rows(plainPage.text)).toEqual([[plain, '—no description', '—no translation', '—no translation']]);
    const [plainRow] = await t.runtime.deps.sql<{ forbidden: boolean }[]>`select forbidden from glossary_terms where project_id = ${p.projectId} and term = ${plain}`;
    expect(plainRow!.forbidden).toBe(false);
  });

  it('Forbidden with Do not translate ticked on the Add form saves the term forbidden and kept as written: not to use in any language, each column says so', async () => {
    const page = await owner.get(glossary());
    const form = formOf(page.text, glossary());
    // The box's hint says what both together mean (and has no "term": the term field is the one labelled so).
    const hint = decode(/name="forbidden"[^>]*\/> Forbidden \(a word not to use\) <span class="hint">([^<]*)<\/span>/.exec(form)?.[1] ?? '');
    expect(hint).toBe('(not to appear: this word in en texts, its translations below in theirs; with Do not translate, this word in every language)');
    expect(hint).not.toMatch(/term/i);
    const term = unique('Crowdin');
    const res = await owner.post(glossary(), { ...browserFields(page.text, glossary()), term, forbidden: 'yes', do_not_translate: 'yes' });
    expect(res.status).toBe(303);
    expect((await owner.follow(res)).text).toContain(`Added the term ${term}.`);
    const [row] = await t.runtime.deps.sql<{ id: string }[]>`select id from glossary_terms where project_id = ${p.projectId} and term = ${term}`;
    expect(await stored(row!.id)).toMatchObject({ term, forbidden: true, translatable: false, translations: {} });

    // Its row: both badges, and each language's column says the spelling kept there is not to use either.
    const shown = await owner.get(`${glossary()}?q=${encodeURIComponent(term)}`);
    expect(rows(shown.text)).toEqual([[`${term} do not translate Forbidden: do not use`, '—no description', 'as written (do not use)', 'as written (do not use)']]);
    // Its Edit form shows both boxes ticked, and what it showed.
    const edit = formOf(shown.text, `${glossary()}/${row!.id}`);
    expect(edit).toMatch(/name="forbidden" value="yes" checked=""/);
    expect(edit).toMatch(/name="do_not_translate" value="yes" checked=""/);
    expect(edit).toContain('name="forbidden_was" value="yes"');
    expect(edit).toContain('name="do_not_translate_was" value="yes"');
    // A term kept as written but not forbidden still says only "as written".
    const kept = await add(unique('Acme'), { translatable: false });
    expect(rows((await owner.get(`${glossary()}?q=${encodeURIComponent(kept.term)}`)).text)).toEqual([[`${kept.term} do not translate`, '—no description', 'as written', 'as written']]);
  });

  it('Edit ticks Forbidden on a term kept as written, and Do not translate on a forbidden term: each saves, the other flag kept', async () => {
    const kept = await add(unique('Brand'), { translatable: false });
    const banned = await add(unique('Hit'), { forbidden: true, translations: { de: 'Treffer' } });
    const now = await owner.get(glossary());
    for (const [term, fields] of [
      [kept, { forbidden: 'yes' }],
      [banned, { do_not_translate: 'yes', description: 'typed' }],
    ] as const) {
      const action = `${glossary()}/${term.id}`;
      const res = await owner.post(action, { ...browserFields(now.text, action), ...fields });
      expect(res.status, term.term).toBe(303);
      expect((await owner.follow(res)).text).toContain(`Saved the term ${term.term}`);
    }
    expect(await stored(kept.id)).toMatchObject({ translatable: false, forbidden: true });
    expect(await stored(banned.id)).toMatchObject({ translatable: false, forbidden: true, description: 'typed', translations: { de: 'Treffer' } });
    const shown = await owner.get(`${glossary()}?q=${encodeURIComponent(kept.term)}`);
    expect(rows(shown.text)).toEqual([[`${kept.term} do not translate Forbidden: do not use`, '—no description', 'as written (do not use)', 'as written (do not use)']]);
  });

  it('Edit ticks and unticks Forbidden, only when changed from what the page showed: a colleague’s change of it stays', async () => {
    const term = await add(unique('Signup'), { translations: { de: 'Registrieren' } });
    const action = `${glossary()}/${term.id}`;
    const page = await owner.get(glossary());
    const fields = browserFields(page.text, action);
    expect(fields.forbidden).toBeUndefined();
    expect(fields.forbidden_was).toBe('no');
    expect(await owner.post(action, { ...fields, forbidden: 'yes' })).toMatchObject({ status: 303 });
    expect((await stored(term.id)).forbidden).toBe(true);

    // The page shows it forbidden; a colleague un-forbids it since; this form changes the description only.
    const shown = browserFields((await owner.get(glossary())).text, action);
    expect(shown).toMatchObject({ forbidden: 'yes', forbidden_was: 'yes' });
    await updateTerm(t.runtime.deps, { projectId: p.projectId, actor: apiActor(), termId: term.id, forbidden: false });
    expect((await owner.post(action, { ...shown, description: 'Create an account' })).status).toBe(303);
    expect(await stored(term.id)).toMatchObject({ description: 'Create an account', forbidden: false });

    // Forbidden again, then unticked from a page that shows it ticked.
    await updateTerm(t.runtime.deps, { projectId: p.projectId, actor: apiActor(), termId: term.id, forbidden: true });
    const untick = browserFields((await owner.get(glossary())).text, action);
    delete untick.forbidden;
    expect((await owner.post(action, untick)).status).toBe(303);
    expect(await stored(term.id)).toMatchObject({ forbidden: false, description: 'Create an account', translations: { de: 'Registrieren' } });
  });

  it('the editor says a forbidden term of the source is not to use (nor its translations), and warns "Forbidden term" at a value using one', async () => {
    const project = await t.newProject('team');
    for (const code of ['en', 'de']) expect((await t.call(project.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    const dev = await signedInMember(t, project.accountId, 'developer');
    await add('Login', { forbidden: true, translations: { de: 'Einloggen' }, description: 'Say "Sign in"' }, project);
    await add('Account', { translations: { de: 'Konto' } }, project);
    const { id } = (await (await t.call(project.apiKey, 'POST', '/v1/keys', { key: 'auth.login' })).json()) as { id: string };
    expect((await t.call(project.apiKey, 'PUT', `/v1/keys/${id}/translations/en`, { value: 'Login to your Account' })).status).toBe(200);
    expect((await t.call(project.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'Jetzt Einloggen in dein Konto' })).status).toBe(200);

    const page = await dev.get(`/portal/projects/${project.projectId}?lang=en&lang=de`);
    expect(page.status).toBe(200);
    const block = new RegExp(`<div class="hint changes" id="gl-${id}">([^]*?)</div>`).exec(page.text)?.[1] ?? '';
    const lines = [...block.matchAll(/<li[^>]*>([^]*?)<\/li>/g)].map((m) => decode(m[1]!.replace(/<[^>]+>/g, '')));
    expect(lines).toEqual(['Account → Konto (de)', 'Login: forbidden, do not use; de: Einloggen (do not use) — Say "Sign in"']);
    expect(block).toContain('<strong lang="en" dir="ltr">Login</strong>: forbidden, do not use; de: <span lang="de" dir="ltr">Einloggen</span> (do not use)');
    // Never as an agreed translation to use.
    expect(block).not.toMatch(/Login<\/strong> →/);

    const warnings = (language: string) => {
      const list = new RegExp(`id="v-${id}-${language}-q" class="quality">([^]*?)</div>`).exec(page.text)?.[1] ?? '';
      return [...list.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => decode(m[1]!));
    };
    expect(warnings('de')).toEqual(['Forbidden term: "Einloggen" is forbidden in de (glossary, the term "Login"): do not use it']);
    expect(warnings('en')).toEqual(['Forbidden term: "Login" is a forbidden term (glossary): do not use it']);
  });

  it('a forbidden term kept as written is not to use in any language: the editor says so, and warns "Forbidden term" at a German value with its spelling', async () => {
    const project = await t.newProject('team');
    for (const code of ['en', 'de', 'fr']) expect((await t.call(project.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    const dev = await signedInMember(t, project.accountId, 'developer');
    await add('Crowdin', { forbidden: true, translatable: false, description: 'A competitor' }, project);
    const { id } = (await (await t.call(project.apiKey, 'POST', '/v1/keys', { key: 'promo.switch' })).json()) as { id: string };
    expect((await t.call(project.apiKey, 'PUT', `/v1/keys/${id}/translations/en`, { value: 'Switch from Crowdin' })).status).toBe(200);
    expect((await t.call(project.apiKey, 'PUT', `/v1/keys/${id}/translations/de`, { value: 'Wechseln Sie von Crowdin' })).status).toBe(200);
    expect((await t.call(project.apiKey, 'PUT', `/v1/keys/${id}/translations/fr`, { value: 'Quittez votre ancien outil' })).status).toBe(200);

    const page = await dev.get(`/portal/projects/${project.projectId}?lang=en&lang=de&lang=fr`);
    expect(page.status).toBe(200);
    const block = new RegExp(`<div class="hint changes" id="gl-${id}">([^]*?)</div>`).exec(page.text)?.[1] ?? '';
    const lines = [...block.matchAll(/<li[^>]*>([^]*?)<\/li>/g)].map((m) => decode(m[1]!.replace(/<[^>]+>/g, '')));
    // Not the source language only, and never "do not translate" as a word to keep.
    expect(lines).toEqual(['Crowdin: forbidden in every language, do not use — A competitor']);
    expect(block).toContain('<strong lang="en" dir="ltr">Crowdin</strong>: forbidden in every language, do not use');

    const warnings = (language: string) => {
      const list = new RegExp(`id="v-${id}-${language}-q" class="quality">([^]*?)</div>`).exec(page.text)?.[1] ?? '';
      return [...list.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => decode(m[1]!));
    };
    // Its spelling is the word not to use in German as in English; a value without it has no warning.
    expect(warnings('de')).toEqual(['Forbidden term: "Crowdin" is a forbidden term (glossary): do not use it']);
    expect(warnings('en')).toEqual(['Forbidden term: "Crowdin" is a forbidden term (glossary): do not use it']);
    expect(warnings('fr')).toEqual([]);
  });
});
