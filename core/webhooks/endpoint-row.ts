// How an endpoint row is read back: one column list for every use-case, never the secret.
import type { Sql, TransactionSql } from '../db/client.ts';
import { isoUtc } from '../db/iso-timestamp.ts';
import { validationError } from '../errors.ts';
import type { Config } from '../config.ts';
import { hostOf, resolveTarget, TargetRefused, urlProblem } from './target-address.ts';

export const endpointColumns = (sql: Sql | TransactionSql) => sql`
  id, project_id, url, description, events, enabled, disabled_reason,
  case when disabled_at is null then null else ${isoUtc(sql, 'disabled_at')} end as disabled_at,
  case when failing_since is null then null else ${isoUtc(sql, 'failing_since')} end as failing_since,
  ${isoUtc(sql, 'created_at')} as created_at, ${isoUtc(sql, 'updated_at')} as updated_at`;

/** Refuses (422 on body.url) a URL of the wrong form, one whose host is not public (unless allowed), or one whose host is not resolved within WEBHOOKS_TIMEOUT_MS. */
export async function checkEndpointUrl(config: Pick<Config, 'WEBHOOKS_ALLOW_PRIVATE_TARGETS' | 'WEBHOOKS_TIMEOUT_MS'>, url: string): Promise<void> {
  const refuse = (msg: string) => validationError([{ loc: ['body', 'url'], msg: `url ${msg}`, type: 'value_error' }]);
  const problem = urlProblem(url);
  if (problem) throw refuse(problem);
  try {
    // Within an attempt's timeout: a resolver that never answers held the request (and on AWS ran
    // into API Gateway's 30 s, a 504) for as long as the system's resolver kept retrying.
    await resolveTarget(hostOf(new URL(url)), config.WEBHOOKS_ALLOW_PRIVATE_TARGETS, config.WEBHOOKS_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof TargetRefused) throw refuse(`refused: ${error.message}`);
    throw error;
  }
}
