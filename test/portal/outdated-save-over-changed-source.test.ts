// The editor's value form carries the number of the source text its page shows (source_rev): a
// translator who translates that text and saves after a developer changed it stores a translation of
// the old source, which is then outdated against the new one (not marked up to date with a text
// nobody translated).
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';
import { formFields } from '../portal/support/form-fields.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

describe('a save from a page loaded before the source changed', () => {
  it('the translation of the text the page showed is outdated against the new source', async () => {
    const p = await project(t, ['en', 'de']);
    const keyId = await p.key('home.title', 'home');
    await p.put(keyId, 'en', 'Welcome', 'approved');
    const translator = await signedInMember(t, p.accountId, 'translator', { languages: ['de'] });
    const page = (await translator.get(`/portal/projects/${p.projectId}?lang=en&lang=de`)).text;
    expect(page).toContain('Welcome');
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de`;
    const fields = formFields(page, action, { selects: true });

    // While the translator types, the developer rewrites the English text.
    await p.put(keyId, 'en', 'Your account was deleted', 'approved');

    const saved = await translator.post(action, { ...fields, value: 'Willkommen', status: 'draft' });
    expect(saved.status, saved.text.slice(0, 300)).toBeLessThan(400);
    const de = await body(await p.get(`/v1/keys/${keyId}/translations/de`));
    expect(de.value).toBe('Willkommen');
    // "Willkommen" translates "Welcome", the text the page showed: it is outdated (or the save is refused).
    expect(de.outdated).toBe(true);
  });
});
