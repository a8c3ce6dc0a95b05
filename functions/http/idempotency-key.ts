// Idempotency-Key on the writes that create (POST /v1/keys, /v1/languages and the admin's accounts,
// projects and API keys): a retry after a lost answer gets the first answer again instead of a 409 or
// a second account. The key is claimed and the answer stored in the write's own transaction (the
// handler runs with deps.tx set, and core's transaction() joins it), so the stored answer exists
// if and only if the write committed. docs/decisions.md and docs/operations.md, "Retrying writes".
//
// The first answer of a create can hold a secret (an API key is shown once, and a lost answer must
// be replayable, or the key is unusable), so it is kept sealed: encrypted (AES-256-GCM) with a key
// derived from the client's Idempotency-Key, which is itself stored only as its SHA-256. Only the
// client that sent the token can open its answer; a reader of the database or of a dump cannot.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { transaction } from '../../core/db/transaction.ts';
import { validationError } from '../../core/errors.ts';
import { claimKey, findAnswer, storeAnswer, type StoredAnswer } from '../../core/db/idempotency-keys.ts';
import type { AppEnv } from './app-env.ts';

const HEADER = 'Idempotency-Key';
/** Visible ASCII, 1 to 255 characters: a UUID or any client-made token fits. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

const invalidKey = () =>
  validationError([{ loc: ['header', HEADER], msg: `${HEADER} must be 1 to 255 visible ASCII characters`, type: 'string_pattern_mismatch' }]);
const reusedKey = () =>
  validationError([
    { loc: ['header', HEADER], msg: `This ${HEADER} was already used with a different request (method, path or body)`, type: 'idempotency_key_reused' },
  ]);

/** Thrown inside the transaction to roll it back: the answer is not one to keep, or another request's was. */
class NotStored extends Error {}

const SEALED = 'sealed:v1:';

/** The answer's key: only the client's token derives it (HKDF-SHA256, bound to the scope). */
const sealingKey = (token: string, scope: string) => Buffer.from(hkdfSync('sha256', token, scope, 'tms idempotent answer', 32));

function seal(body: string, token: string, scope: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(token, scope), iv);
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return SEALED + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/**
 * The stored body, opened. (Answers stored before sealing were kept under the token itself, which is
 * no longer looked up: a retry across the upgrade ran again, within that one day.)
 */
function open(stored: string, token: string, scope: string): string {
  const bytes = Buffer.from(stored.slice(SEALED.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(token, scope), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

function replay(answer: StoredAnswer, token: string, scope: string): Response {
  return new Response(open(answer.body, token, scope), { status: answer.status, headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' } });
}

/** Runs last before the handler (after validation, so that refused input claims nothing). */
export const idempotencyKey = (): MiddlewareHandler<AppEnv> =>
  async function idempotencyKey(c, next) {
    const token = c.req.header(HEADER);
    if (token === undefined) return next();
    if (!VALID_KEY.test(token)) throw invalidKey();
    // Stored as its hash: the token opens the sealed answer, so it is never kept itself.
    const key = `sha256:${createHash('sha256').update(token).digest('base64url')}`;
    const deps = c.get('deps');
    const scope = c.get('principal')?.projectId ?? 'admin';
    // The body as bytes: an upload's is an image, which text would decode lossily (and hand the
    // handler the re-encoded, broken bytes, as Hono derives later reads from the first). The query
    // is the request's too (an upload's name and keys); none, as on JSON writes, adds nothing, so
    // those fingerprint as before.
    const body = new Uint8Array(await c.req.arrayBuffer());
    const search = new URL(c.req.url).search;
    const fingerprint = createHash('sha256').update(`${c.req.method} ${c.req.path}${search}\n`).update(body).digest('base64url');

    const answerFor = (stored: StoredAnswer) => {
      if (stored.fingerprint !== fingerprint) throw reusedKey();
      return replay(stored, token, scope);
    };
    const earlier = await findAnswer(deps.sql, scope, key);
    if (earlier) return answerFor(earlier);

    try {
      await transaction(deps, async (tx) => {
        if (!(await claimKey(tx.sql, scope, key, fingerprint))) throw new NotStored();
        c.set('deps', { ...deps, tx });
        try {
          await next();
        } finally {
          c.set('deps', deps);
        }
        // Only successes are kept: a refusal (4xx) or failure rolls back with the write, and a retry
        // runs again, which is what a client that fixed its request or waited out an outage wants.
        if (c.error || c.res.status >= 300) throw new NotStored();
        await storeAnswer(tx.sql, scope, key, { status: c.res.status, body: seal(await c.res.clone().text(), token, scope) });
      });
    } catch (error) {
      if (!(error instanceof NotStored)) throw error;
      // Either the handler's own answer (an error response, already in c.res), or another request
      // with this key committed while this one waited for it: answer as it did.
      if (c.error || c.res.status >= 300) return;
      const committed = await findAnswer(deps.sql, scope, key);
      if (!committed) throw error;
      return answerFor(committed);
    }
  };
