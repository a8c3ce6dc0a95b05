// Post/Redirect/Get for the portal's writes whose page says what they did (an import's counts, a
// revert, a restore, a removed language...). Answering the POST with that page left the browser on
// the POST: a reload (accepting the browser's "resubmit?") or a Back into it ran the write again, and
// an import or a revert applied twice overwrites what colleagues changed in between. So the write is
// answered 303 to the page's GET address with `outcome=<id>`, and that page reads the outcome here:
// reloading it, or coming back to it, only reads.
//
// Outcomes are kept in the store the API's Idempotency-Key uses (core/db/idempotency-keys.ts: 24
// hours, cleared by age), under the user's own scope and the page's place (the project or account):
// an id is shown to nobody else, and never on another project's page. Only what the portal wrote
// is kept (its own counts and sentences); an id that is unknown, expired or someone else's shows
// the page without an outcome.
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../core/deps.ts';
import { transaction } from '../../core/db/transaction.ts';
import { claimKey, findAnswer, storeAnswer } from '../../core/db/idempotency-keys.ts';
import type { ImportResult } from '../../core/files/schemas.ts';
import type { TranslateResult } from '../../core/translate/translate-missing.ts';

/** What a write's page shows after the redirect. */
export type Outcome = {
  notice?: string;
  /** A refusal the page says at its top (the write did nothing). */
  error?: string;
  imported?: ImportResult;
  /** The tag the import gave every key of its file (its counts name it). */
  importTag?: string;
  translated?: TranslateResult;
};

/** The page an outcome belongs to: a project's pages, or an account's members page. */
export type Place = { project: string } | { account: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const scopeOf = (userId: string) => `portal:${userId}`;
const keyOf = (place: Place, id: string) => `outcome:${'project' in place ? `project:${place.project}` : `account:${place.account}`}:${id}`;

/** Keeps what a write did, for its page to show; the id goes into the redirect's `outcome=`. */
export async function keepOutcome(deps: Pick<Deps, 'sql' | 'events'>, userId: string, place: Place, outcome: Outcome): Promise<string> {
  const id = randomUUID();
  await transaction(deps, async (tx) => {
    await claimKey(tx.sql, scopeOf(userId), keyOf(place, id), 'outcome');
    await storeAnswer(tx.sql, scopeOf(userId), keyOf(place, id), { status: 200, body: JSON.stringify(outcome) });
  });
  return id;
}

/** The outcome a page's `outcome=` names, when it is this user's and this place's. */
export async function findOutcome(deps: Pick<Deps, 'sql'>, userId: string, place: Place, id: string | undefined): Promise<Outcome | undefined> {
  if (!id || !UUID.test(id)) return undefined;
  const found = await findAnswer(deps.sql, scopeOf(userId), keyOf(place, id));
  return found && found.status === 200 ? (JSON.parse(found.body) as Outcome) : undefined;
}
