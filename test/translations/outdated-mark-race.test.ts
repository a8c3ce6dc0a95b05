// "Mark up to date" racing a source write, on real PostgreSQL: the value is marked up to date with
// the source text its statement read (the one the reviewer was shown, when the editor names it), never
// one committed while it waited for the value's row lock; that newer source leaves it outdated.
import { describe, expect, it } from 'vitest';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp } from '../support/test-app.ts';
import { signedInMember } from '../portal/support/signed-in-member.ts';
import { formFields } from '../portal/support/form-fields.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

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
