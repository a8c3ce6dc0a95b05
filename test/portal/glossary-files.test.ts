// Glossary files on the portal's Glossary tab (docs/portal.md, "Glossary"), through HTTP as
// signed-in members: every member downloads the glossary as CSV or TBX (an attachment); a member
// with glossary.manage and every language imports one after a preview (the dry run, which writes
// nothing), whose Apply sends the same bytes back and answers with a redirect to a page saying what
// it did; Apply sent again (Back, a double click) imports once; Apply after the glossary changed
// shows the new preview (412) instead of importing; a bad file is a 422 at the file field, by its
// lines, nothing written and the choice kept; a reviewer limited to some languages, a translator
// and a member of another account are refused (403, 403, 404), and only who may import sees the form.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import type { PortalClient, PortalResponse } from './support/portal-client.ts';
import { signedInMember } from './support/signed-in-member.ts';
import { decode } from './support/form-fields.ts';
import { createTerm } from '../../core/glossary/create-term.ts';
import { updateTerm } from '../../core/glossary/update-term.ts';

const t = useTestApp();
const sql = () => t.runtime.deps.sql;

async function project(): Promise<TestProject> {
  const p = await t.newProject('team');
  // en first: the project's source language.
  for (const code of ['en', 'de', 'fr']) expect((await t.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
  return p;
}

const glossary = (p: TestProject) => `/portal/projects/${p.projectId}/glossary`;
const importPath = (p: TestProject) => `${glossary(p)}/import`;
const apiActor = (p: TestProject) => ({ type: 'api_key' as const, id: p.apiKeyId });

type Term = { term: string; description: string; translations: Record<string, string> };
const termsOf = async (p: TestProject): Promise<Term[]> =>
  sql()<Term[]>`
    select t.term, t.description,
           coalesce((select jsonb_object_agg(x.language, x.text) from glossary_term_translations x where x.term_id = t.id), '{}'::jsonb) as translations
    from glossary_terms t where t.project_id = ${p.projectId} order by t.term_folded collate "C"`;
const importEvents = async (p: TestProject) =>
  sql()<{ actor_type: string; after: unknown }[]>`select actor_type, after from domain_events where project_id = ${p.projectId} and type = 'glossary.imported' order by id`;

/** A multipart form sent as the browser sends it, with the client's session. */
async function postMultipart(client: PortalClient, path: string, fields: Record<string, string>, file?: { name: string; text: string }): Promise<PortalResponse> {
  const form = new FormData();
  form.set('_csrf', client.csrf);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('file', new File([file.text], file.name, { type: 'application/octet-stream' }));
  const res = await t.app.request(`http://localhost${path}`, {
    method: 'POST',
    headers: { Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), Origin: 'http://localhost' },
    body: form,
  });
  return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
}

/** The Import form sent with a file: the dry run's preview. */
const preview = (client: PortalClient, p: TestProject, file: { name: string; text: string }, format = '') => postMultipart(client, importPath(p), { format }, file);

/** The preview's Apply form sent as the browser sends it: its hidden fields, multipart. */
function applyFields(html: string): Record<string, string> {
  const form = /<form[^>]*aria-label="Apply this glossary import"[^>]*>([^]*?)<\/form>/.exec(html)?.[1];
  if (!form) throw new Error(`no Apply form in the page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[name!] = decode(value!);
  return fields;
}
const apply = (client: PortalClient, p: TestProject, html: string) => {
  const { _csrf, ...fields } = applyFields(html);
  return postMultipart(client, importPath(p), fields);
};

/** The preview's own text (its section), tags removed. */
const previewText = (html: string) =>
  decode((/<section class="card stack" aria-labelledby="glossary-preview-title">([^]*?)<\/section>/.exec(html)?.[1] ?? '').replace(/<\/(li|p|h3)>/g, ' ').replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();

const CSV = [
  'term,description,de,fr,es',
  'Dashboard,The start page,Übersicht,Tableau de bord,Panel',
  'Workspace,,Arbeitsbereich,,',
  'Settings,,Einstellungen,Paramètres,',
  '',
].join('\n');

let owner: PortalClient;
let p: TestProject;

beforeAll(async () => {
  p = await project();
  owner = await signedInMember(t, p.accountId, 'owner');
});

describe('export', () => {
  it('downloads the glossary as CSV and as TBX, an attachment, for every member; the tab links both', async () => {
    const q = await project();
    await createTerm(t.runtime.deps, { projectId: q.projectId, actor: apiActor(q), term: 'Dashboard', description: 'The start page', translations: { de: 'Übersicht' } });
    const translator = await signedInMember(t, q.accountId, 'translator', { languages: ['de'] });
    const page = await translator.get(glossary(q));
    expect(page.text).toContain(`<a href="${glossary(q)}/export?format=csv" download="glossary.csv">Download CSV</a>`);
    expect(page.text).toContain(`<a href="${glossary(q)}/export?format=tbx" download="glossary.tbx">Download TBX</a>`);

    const csv = await translator.get(`${glossary(q)}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="glossary.csv"');
    expect(csv.text).toContain('Dashboard,The start page');
    expect(csv.text).toContain('Übersicht');

    const tbx = await translator.get(`${glossary(q)}/export?format=tbx`);
    expect(tbx.status).toBe(200);
    expect(tbx.headers.get('content-type')).toBe('application/x-tbx+xml; charset=utf-8');
    expect(tbx.headers.get('content-disposition')).toBe('attachment; filename="glossary.tbx"');
    expect(tbx.text).toContain('<martif');
    expect(tbx.text).toContain('Übersicht');

    // No format: CSV; a format that is none: the portal's page, 422.
    expect((await translator.get(`${glossary(q)}/export`)).headers.get('content-disposition')).toBe('attachment; filename="glossary.csv"');
    const bad = await translator.get(`${glossary(q)}/export?format=xlsx`);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('format must be csv or tbx');
  });

  it('an exported file imports back as it is: nothing to apply', async () => {
    const q = await project();
    await createTerm(t.runtime.deps, { projectId: q.projectId, actor: apiActor(q), term: 'Acme', translatable: false, case_sensitive: true });
    await createTerm(t.runtime.deps, { projectId: q.projectId, actor: apiActor(q), term: 'Billing', translations: { de: 'Abrechnung', fr: 'Facturation' } });
    const dev = await signedInMember(t, q.accountId, 'developer');
    for (const format of ['csv', 'tbx']) {
      const file = await dev.get(`${glossary(q)}/export?format=${format}`);
      const shown = await preview(dev, q, { name: `glossary.${format}`, text: file.text });
      expect(shown.status).toBe(200);
      expect(previewText(shown.text)).toContain("Nothing would change: the glossary already has the file's 2 terms as it says.");
      expect(shown.text).not.toContain('Apply this import');
    }
  });
});

describe('import: preview, then Apply', () => {
  it('previews what it would do (counts, languages, warnings) and writes nothing; Apply imports it and redirects to what it did', async () => {
    await createTerm(t.runtime.deps, { projectId: p.projectId, actor: apiActor(p), term: 'dashboard', translations: { de: 'Startseite' } });
    const before = await termsOf(p);

    const shown = await preview(owner, p, { name: 'terms.csv', text: CSV });
    expect(shown.status).toBe(200);
    const text = previewText(shown.text);
    expect(text).toContain('Preview: what importing terms.csv would do');
    expect(text).toContain('Would add 2 terms, change 1, 0 unchanged; 5 translations in de, fr.');
    expect(text).toContain('1 warning: skipped, not imported');
    expect(text).toContain('column es: not a language of the project');
    expect(text).toContain('Apply this import');
    expect(text).toContain('Cancel');
    // The preview wrote nothing.
    expect(await termsOf(p)).toEqual(before);
    expect(await importEvents(p)).toEqual([]);
    const fields = applyFields(shown.text);
    expect(fields).toMatchObject({ apply: 'yes', format: 'csv', filename: 'terms.csv', file_base64: Buffer.from(CSV).toString('base64') });
    expect(fields.submission).toMatch(/^[0-9a-f-]{36}$/);

    const applied = await apply(owner, p, shown.text);
    expect(applied.status).toBe(303);
    expect(applied.location).toMatch(new RegExp(`^${glossary(p)}\\?outcome=`));
    const after = await owner.follow(applied);
    expect(after.status).toBe(200);
    expect(after.text).toContain('Imported the glossary file (csv): 2 terms added, 1 changed, 0 unchanged; 5 translations written in de, fr.');
    expect(await termsOf(p)).toEqual([
      { term: 'Dashboard', description: 'The start page', translations: { de: 'Übersicht', fr: 'Tableau de bord' } },
      { term: 'Settings', description: '', translations: { de: 'Einstellungen', fr: 'Paramètres' } },
      { term: 'Workspace', description: '', translations: { de: 'Arbeitsbereich' } },
    ]);
    expect(await importEvents(p)).toEqual([{ actor_type: 'user', after: { format: 'csv', terms_created: 2, terms_updated: 1, translations_written: 5 } }]);
    // The answer's page, reloaded, imports nothing again.
    expect((await owner.get(applied.location!)).status).toBe(200);
    expect(await importEvents(p)).toHaveLength(1);
    // Activity says it in words.
    const activity = await owner.get(`/portal/projects/${p.projectId}/activity`);
    expect(activity.text).toContain('imported a glossary file (csv)');
    expect(activity.text).toContain('2 terms added, 1 changed, 5 translations written');
  });

  it('takes the format from the file name (.csv, .tbx, any case), else from the select; a name that says neither asks for it at the format field', async () => {
    const q = await project();
    const dev = await signedInMember(t, q.accountId, 'developer');
    const byName = await preview(dev, q, { name: 'TERMS.CSV', text: CSV });
    expect(byName.status).toBe(200);
    expect(applyFields(byName.text).format).toBe('csv');
    const chosen = await preview(dev, q, { name: 'terms.txt', text: CSV }, 'csv');
    expect(chosen.status).toBe(200);
    expect(applyFields(chosen.text).format).toBe('csv');
    const unknown = await preview(dev, q, { name: 'terms.txt', text: CSV });
    expect(unknown.status).toBe(422);
    expect(unknown.text).toMatch(/<select name="format" aria-invalid="true" aria-describedby="glossary-import-format-error glossary-import-help"/);
    expect(unknown.text).toContain('id="glossary-import-format-error" class="field-error"><p>Choose the file&#39;s format: its name (terms.txt) does not end in .csv or .tbx</p>');
    // A TBX read as CSV would be a bad CSV: the file name chose TBX.
    const r = await project();
    await createTerm(t.runtime.deps, { projectId: r.projectId, actor: apiActor(r), term: 'Dashboard', translations: { de: 'Übersicht' } });
    const tbx = await (await signedInMember(t, r.accountId, 'owner')).get(`${glossary(r)}/export?format=tbx`);
    expect(tbx.status).toBe(200);
    const asTbx = await preview(dev, q, { name: 'base.tbx', text: tbx.text });
    expect(asTbx.status).toBe(200);
    expect(applyFields(asTbx.text).format).toBe('tbx');
    expect(await termsOf(q)).toEqual([]);
  });

  it('a bad file: 422 at the file field with its lines, nothing written, the format chosen kept and the form open', async () => {
    const q = await project();
    const dev = await signedInMember(t, q.accountId, 'developer');
    const bad = ['term,de', 'Dashboard,Übersicht', `${'x'.repeat(201)},Zu lang`, 'Settings,Einstellungen', `Billing,${'y'.repeat(201)}`, ''].join('\n');
    const refused = await preview(dev, q, { name: 'terms.txt', text: bad }, 'csv');
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/<input type="file" name="file" required="" aria-invalid="true" aria-describedby="glossary-import-file-error glossary-import-help" autofocus=""/);
    const problems = /<div id="glossary-import-file-error" class="field-error">([^]*?)<\/div>/.exec(refused.text)?.[1] ?? '';
    expect(problems).toContain('Nothing was imported: the file has 2 problems.');
    expect(problems).toMatch(/<li>line 3: [^<]+<\/li>/);
    expect(problems).toMatch(/<li>line 5: [^<]+<\/li>/);
    expect(refused.text).toContain('<details class="card" open=""><summary>Import a glossary file</summary>');
    expect(refused.text).toContain('<option value="csv" selected="">CSV (a spreadsheet)</option>');
    expect(refused.text).toContain('Not imported: nothing was written.');
    expect(await termsOf(q)).toEqual([]);
    expect(await importEvents(q)).toEqual([]);
    // No file at all: said at the file field.
    const none = await postMultipart(dev, importPath(q), { format: '' });
    expect(none.status).toBe(422);
    expect(none.text).toContain('id="glossary-import-file-error" class="field-error"><p>Choose a file to import</p>');
    // Over 10 MiB, as through the API: the portal's page says so.
    const large = await preview(dev, q, { name: 'big.csv', text: `term\n${'a,'.repeat(5 * 1024 * 1024)}` });
    expect(large.status).toBe(413);
    expect(large.text).toContain('The file is larger than 10 MiB, the most a glossary import takes');
    expect(await termsOf(q)).toEqual([]);
  });

  it('Apply after the glossary changed shows the new preview (412) and imports nothing; that preview applies', async () => {
    const q = await project();
    const dev = await signedInMember(t, q.accountId, 'developer');
    const shown = await preview(dev, q, { name: 'terms.csv', text: CSV });
    expect(previewText(shown.text)).toContain('Would add 3 terms, change 0, 0 unchanged; 5 translations in de, fr.');
    // A colleague adds one of the file's terms, another way.
    const added = await createTerm(t.runtime.deps, { projectId: q.projectId, actor: apiActor(q), term: 'Workspace', translations: { de: 'Arbeitsplatz' } });
    const changed = await apply(dev, q, shown.text);
    expect(changed.status).toBe(412);
    const text = previewText(changed.text);
    expect(text).toContain('Nothing was imported: the glossary changed since the preview was made');
    expect(text).toContain('Would add 2 terms, change 1, 0 unchanged; 5 translations in de, fr.');
    expect(await termsOf(q)).toEqual([{ term: 'Workspace', description: '', translations: { de: 'Arbeitsplatz' } }]);
    expect(await importEvents(q)).toEqual([]);
    // The new preview has a new token and applies.
    expect(applyFields(changed.text).submission).not.toBe(applyFields(shown.text).submission);
    const applied = await apply(dev, q, changed.text);
    expect(applied.status).toBe(303);
    expect((await termsOf(q)).map((x) => x.term)).toEqual(['Dashboard', 'Settings', 'Workspace']);
    expect(await importEvents(q)).toHaveLength(1);

    // A translation the file has as stored, changed by a colleague since the preview: the import would change it back.
    const file = ['term,de', 'Workspace,Arbeitsbereich', 'Billing,Abrechnung', ''].join('\n');
    const second = await preview(dev, q, { name: 'more.csv', text: file });
    expect(previewText(second.text)).toContain('Would add 1 term, change 0, 1 unchanged; 1 translation in de.');
    await updateTerm(t.runtime.deps, { projectId: q.projectId, actor: apiActor(q), termId: added.id, translations: { de: 'Büro' } });
    const refused = await apply(dev, q, second.text);
    expect(refused.status).toBe(412);
    expect(previewText(refused.text)).toContain('Would add 1 term, change 1, 0 unchanged; 2 translations in de.');
    expect((await termsOf(q)).map((x) => x.term)).toEqual(['Dashboard', 'Settings', 'Workspace']);

    // A translation the file changes, changed by a colleague to something else since the preview:
    // the counts are the same (one term changed, one translation written), the colleague's text
    // would be written over unseen. Refused too.
    const third = await preview(dev, q, { name: 'again.csv', text: ['term,de', 'Workspace,Arbeitsbereich', ''].join('\n') });
    expect(previewText(third.text)).toContain('Would add 0 terms, change 1, 0 unchanged; 1 translation in de.');
    await updateTerm(t.runtime.deps, { projectId: q.projectId, actor: apiActor(q), termId: added.id, translations: { de: 'Arbeitszimmer' } });
    const unseen = await apply(dev, q, third.text);
    expect(unseen.status).toBe(412);
    expect(previewText(unseen.text)).toContain('Would add 0 terms, change 1, 0 unchanged; 1 translation in de.');
    expect((await termsOf(q)).find((x) => x.term === 'Workspace')?.translations).toEqual({ de: 'Arbeitszimmer' });
  });

  it('Apply sent again (a reload, Back to the preview, a double click) imports once and says so', async () => {
    const q = await project();
    const dev = await signedInMember(t, q.accountId, 'developer');
    const shown = await preview(dev, q, { name: 'terms.csv', text: CSV });
    // A double click: both sent at once.
    const [first, second] = await Promise.all([apply(dev, q, shown.text), apply(dev, q, shown.text)]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(await importEvents(q)).toHaveLength(1);
    // Back to the preview, a colleague's change since, and Apply again: nothing is imported over it.
    const [dashboard] = await sql()<{ id: string }[]>`select id from glossary_terms where project_id = ${q.projectId} and term = 'Dashboard'`;
    await updateTerm(t.runtime.deps, { projectId: q.projectId, actor: apiActor(q), termId: dashboard!.id, translations: { de: 'Startseite' } });
    const again = await apply(dev, q, shown.text);
    expect(again.status).toBe(303);
    const page = await dev.follow(again);
    expect(page.text).toContain(
      'This preview was already applied, and nothing was imported again (that import: 3 terms added, 0 changed, 0 unchanged; 5 translations written in de, fr). To import the file again, preview it again.',
    );
    expect(await importEvents(q)).toHaveLength(1);
    expect((await termsOf(q)).find((x) => x.term === 'Dashboard')!.translations.de).toBe('Startseite');
  });
});

describe('who may import', () => {
  it('a reviewer limited to some languages sees no Import form, and is refused (403, the portal page), nothing written', async () => {
    const q = await project();
    const limited = await signedInMember(t, q.accountId, 'reviewer', { languages: ['de'] });
    const page = await limited.get(glossary(q));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Add a term');
    expect(page.text).toContain('Download CSV');
    expect(page.text).not.toContain('Import a glossary file');
    expect(page.text).not.toContain(`action="${importPath(q)}"`);
    const refused = await preview(limited, q, { name: 'terms.csv', text: CSV });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('<title>Not allowed · tms</title>');
    expect(refused.text).toContain('Your membership is limited to de');
    // Apply, forged: the same.
    const applied = await postMultipart(limited, importPath(q), { apply: 'yes', format: 'csv', file_base64: Buffer.from(CSV).toString('base64') });
    expect(applied.status).toBe(403);
    expect(await termsOf(q)).toEqual([]);
    // A reviewer of every language imports.
    const reviewer = await signedInMember(t, q.accountId, 'reviewer');
    expect((await reviewer.get(glossary(q))).text).toContain('Import a glossary file');
    expect((await preview(reviewer, q, { name: 'terms.csv', text: CSV })).status).toBe(200);
  });

  it('a translator sees no Import form and is refused (403)', async () => {
    const q = await project();
    const translator = await signedInMember(t, q.accountId, 'translator');
    expect((await translator.get(glossary(q))).text).not.toContain('Import a glossary file');
    expect((await preview(translator, q, { name: 'terms.csv', text: CSV })).status).toBe(403);
    expect(await termsOf(q)).toEqual([]);
  });

  it("another account's project: 404 for its export and its import", async () => {
    const q = await project();
    const stranger = await signedInMember(t, p.accountId, 'owner');
    expect((await stranger.get(`${glossary(q)}/export?format=csv`)).status).toBe(404);
    expect((await preview(stranger, q, { name: 'terms.csv', text: CSV })).status).toBe(404);
    expect(await termsOf(q)).toEqual([]);
  });
});
