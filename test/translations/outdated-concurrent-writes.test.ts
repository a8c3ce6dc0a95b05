// Outdated values under concurrent writers, on real PostgreSQL (core/translations/outdated.ts,
// migration 028): a translation is written against the source text its statement sees committed. A
// source write still waiting for a row lock, or inside a long import, when a translation is saved is
// not the one that translation read: once it commits, the translation is outdated. (A transaction's
// start time, which the first design compared, stamped such a source older than the translation.)
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';
import { formFields } from '../portal/support/form-fields.ts';
import { body, project } from './helpers.ts';

const t = useTestApp();

async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Holds the source (en) row of a key locked, as another writer of it would, while `during` runs. */
async function withSourceRowHeld(keyId: string, start: () => Promise<Response>, during: () => Promise<void>): Promise<Response> {
  const sql = t.runtime.deps.sql;
  const holder = await sql.reserve();
  try {
    await holder`begin`;
    const [{ pid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
    await holder`select 1 from translations where key_id = ${keyId} and language = 'en' for update`;
    const pending = start();
    await waitFor(
      async () => (await sql`select 1 from pg_stat_activity where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`).length > 0,
      'the source write waits for the held row',
    );
    await during();
    await holder`commit`;
    return await pending;
  } finally {
    await holder`rollback`.catch(() => undefined);
    holder.release();
  }
}

describe.runIf(usingRealPostgres())('a translation written while a source write was still uncommitted', () => {
  it('PUT de while a PUT of en waits: de was written against the old source and must come out outdated', async () => {
    const p = await project(t, ['en', 'de']);
    const keyId = await p.key('home.title', 'home');
    await p.put(keyId, 'en', 'Welcome', 'approved');
    await p.put(keyId, 'de', 'Willkommen', 'approved');

    const res = await withSourceRowHeld(
      keyId,
      () => t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/en`, { value: 'Welcome back, friend', status: 'approved' }),
      async () => {
        // What the translator reads: the old source. They write a new German text against it.
        expect((await body(await p.get(`/v1/keys/${keyId}/translations/en`))).value).toBe('Welcome');
        await p.put(keyId, 'de', 'Herzlich willkommen', 'review');
      },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await body(await p.get(`/v1/keys/${keyId}/translations/en`))).value).toBe('Welcome back, friend');
    // The German text predates the new English one as far as anyone could see: outdated.
    expect((await body(await p.get(`/v1/keys/${keyId}/translations/de`))).outdated).toBe(true);
    expect((await body(await p.get('/v1/keys?outdated=de'))).keys.map((k: { key: string }) => k.key)).toEqual(['home.title']);
  });

  it('an import of the source file (one long transaction) during which a translator saves: the translation must come out outdated', async () => {
    const p = await project(t, ['en', 'de']);
    const keyId = await p.key('home.title', 'home');
    await p.put(keyId, 'en', 'Welcome', 'approved');
    await p.put(keyId, 'de', 'Willkommen', 'approved');

    const res = await withSourceRowHeld(
      keyId,
      async () =>
        t.app.request('/v1/import/en?format=i18next&status=approved', {
          method: 'POST',
          headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ home: { title: 'Welcome home' } }),
        }),
      async () => {
        expect((await body(await p.get(`/v1/keys/${keyId}/translations/en`))).value).toBe('Welcome');
        await p.put(keyId, 'de', 'Herzlich willkommen', 'review');
      },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await body(await p.get(`/v1/keys/${keyId}/translations/en`))).value).toBe('Welcome home');
    expect((await body(await p.get(`/v1/keys/${keyId}/translations/de`))).outdated).toBe(true);
  });

  it('Mark up to date while a source write waits: the mark confirmed the old source, the new one must outdate it', async () => {
    const p = await project(t, ['en', 'de']);
    const keyId = await p.key('home.title', 'home');
    await p.put(keyId, 'en', 'Welcome', 'approved');
    await p.put(keyId, 'de', 'Willkommen', 'approved');
    await p.put(keyId, 'en', 'Welcome!', 'approved');
    expect((await body(await p.get(`/v1/keys/${keyId}/translations/de`))).outdated).toBe(true);

    const res = await withSourceRowHeld(
      keyId,
      () => t.call(p.apiKey, 'PUT', `/v1/keys/${keyId}/translations/en`, { value: 'Goodbye', status: 'approved' }),
      async () => {
        expect((await body(await p.get(`/v1/keys/${keyId}/translations/en`))).value).toBe('Welcome!');
        const marked = await t.call(p.apiKey, 'POST', `/v1/keys/${keyId}/translations/de/up-to-date`);
        expect(marked.status, await marked.clone().text()).toBe(200);
      },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    // "Willkommen" was confirmed against "Welcome!", never against "Goodbye".
    expect((await body(await p.get(`/v1/keys/${keyId}/translations/de`))).outdated).toBe(true);
  });
});

// "Mark up to date" racing a source write: the value is marked up to date with the source text its
// statement read (the one the reviewer was shown), never one committed while it waited for the
// value's row lock; that newer source leaves it outdated.
describe.runIf(usingRealPostgres())('Mark up to date racing a source write', () => {
  it('a source text committed while the mark waited is not confirmed: the value stays outdated (or the mark is refused)', async () => {
    const sql = t.runtime.deps.sql;
    const p = await project(t, ['en', 'de']);
    const keyId = await p.key('home.title', 'home');
    await p.put(keyId, 'en', 'Welcome', 'approved');
    await p.put(keyId, 'de', 'Willkommen', 'review');
    await p.put(keyId, 'en', 'Welcome!', 'approved');
    const reviewer = await signedInMember(t, p.accountId, 'reviewer');
    const action = `/portal/projects/${p.projectId}/keys/${keyId}/values/de/up-to-date`;
    const page = (await reviewer.get(`/portal/projects/${p.projectId}?lang=en&lang=de`)).text;
    // The button posts its value form's fields to its own address (formaction).
    const fields = formFields(page, action.replace(/\/up-to-date$/, ''));
    expect(fields.source_rev).toBe(String((await body(await p.get(`/v1/keys/${keyId}/translations/en`))).version));

    const holder = await sql.reserve();
    let marked;
    try {
      await holder`begin`;
      const [{ pid }] = (await holder`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
      // Someone reading the German value with a share lock for a moment (any FOR SHARE / FK check).
      await holder`select 1 from translations where key_id = ${keyId} and language = 'de' for share`;
      const pending = reviewer.post(action, fields);
      await waitFor(
        async () => (await sql`select 1 from pg_stat_activity where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`).length > 0,
        'the mark waits for the value row',
      );
      // Meanwhile the developer changes the English text, and it commits.
      await p.put(keyId, 'en', 'Goodbye', 'approved');
      await holder`commit`;
      marked = await pending;
    } finally {
      await holder`rollback`.catch(() => undefined);
      holder.release();
    }
    expect(marked.status).toBe(303);
    // The reviewer confirmed "Willkommen" against "Welcome!", never against "Goodbye".
    expect((await body(await p.get(`/v1/keys/${keyId}/translations/de`))).outdated).toBe(true);
  });
});
