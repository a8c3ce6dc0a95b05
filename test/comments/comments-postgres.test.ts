// Comments on values: a race only real PostgreSQL shows (PGlite has one backend). The cap under
// concurrent adds: test/comments/comments.test.ts.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();
const thread = (keyId: string, language: string) => `/v1/keys/${keyId}/translations/${language}/comments`;

/** Waits until a backend waits on a lock while running a statement that contains `fragment`. */
async function untilWaiting(fragment: string) {
  for (let i = 0; i < 200; i++) {
    const rows = await t.runtime.deps.sql`
      select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like ${`%${fragment}%`}`;
    if (rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no backend waited on a lock running ${fragment}`);
}

describe.skipIf(!usingRealPostgres())('comments: races on PostgreSQL', () => {
  it('a comment added while its language is being removed is a 404 (language not registered), not a 500', async () => {
    const p = await project(t, ['en', 'de']);
    const keyId = await p.key('home.title');
    // What removeLanguage does in its transaction (core/languages/remove-language.ts): the language's
    // row locked, its values and the row deleted; the commit comes after the comment's checks.
    const remover = await t.runtime.deps.sql.reserve();
    try {
      await remover`begin`;
      await remover`select 1 from project_languages where project_id = ${p.projectId} and code = 'de' for update`;
      await remover`delete from translations where project_id = ${p.projectId} and language = 'de'`;
      await remover`delete from project_languages where project_id = ${p.projectId} and code = 'de'`;
      const adding = t.call(p.apiKey, 'POST', thread(keyId, 'de'), { text: 'Sie or du?' });
      // The comment's slot check saw the language (the removal is not committed); its insert's
      // foreign-key check now waits for the removal.
      await untilWaiting('insert into value_comments');
      await remover`commit`;
      const res = await adding;
      expect(res.status, await res.clone().text()).toBe(404);
      expect((await body(res)).detail).toBe("Language 'de' is not registered for this project");
    } finally {
      remover.release();
    }
  });
});
