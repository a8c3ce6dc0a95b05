// Lambda refuses a synchronous response larger than 6 MB ("Response payload size exceeded maximum
// allowed payload size (6291556 bytes)"), and API Gateway then answers a bare 500. A language of
// more than ~6 MB of values (800 keys of 9,000-character values here), read live or exported, got
// that; it is now a 413 in the envelope saying how to ask for less. Invokes the Lambda entries as
// test/lambda does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LambdaEvent } from 'hono/aws-lambda';
import { LAMBDA_RESPONSE_LIMIT, type HttpHandler } from '../../functions/lambda/http-handler.ts';
import { ADMIN_TOKEN } from '../support/test-app.ts';
import { startEmulatedAws, DISTRIBUTION_ID, type EmulatedAws } from '../support/emulated-aws.ts';
import { startSharedDatabase, type SharedDatabase } from '../support/shared-database.ts';
import { apiGatewayEvent, captureJsonLogs, linkEnv, type HttpRequest, type LambdaHttpResult } from '../support/lambda-events.ts';
import { catalogueEntry, entryFileOf, type HttpFunctionName } from '../../functions/catalogue.ts';


const GROUPS = ['admin', 'languages', 'import', 'export', 'translations'] as const satisfies readonly HttpFunctionName[];
type Group = (typeof GROUPS)[number];

let aws: EmulatedAws;
let db: SharedDatabase;
const handlers = {} as Record<Group, HttpHandler>;
captureJsonLogs();
let key: string;

async function invoke(group: Group, request: HttpRequest): Promise<LambdaHttpResult> {
  return (await handlers[group](apiGatewayEvent(request) as unknown as LambdaEvent)) as LambdaHttpResult;
}

beforeAll(async () => {
  [aws, db] = await Promise.all([startEmulatedAws(), startSharedDatabase()]);
  Object.assign(process.env, aws.endpoints, { LOG_REQUESTS: 'false' });
  Object.assign(
    process.env,
    linkEnv({
      DatabaseUrl: { value: db.url },
      AdminToken: { value: ADMIN_TOKEN },
      TranslationsBucket: { name: aws.s3.bucket },
      RebuildQueue: { url: aws.queueUrl },
      RebuildDeadLetterQueue: { url: aws.deadLetterUrl },
      EdgeCache: { distributionId: DISTRIBUTION_ID },
    }),
  );
  for (const name of GROUPS) {
    handlers[name] = ((await import(`../../${entryFileOf(catalogueEntry(name))}`)) as { handler: HttpHandler }).handler;
  }
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const account = JSON.parse((await invoke('admin', { method: 'POST', path: '/admin/v1/accounts', headers: admin, body: { name: 'Big', plan: 'team' } })).body) as { id: string };
  const project = JSON.parse(
    (await invoke('admin', { method: 'POST', path: `/admin/v1/accounts/${account.id}/projects`, headers: admin, body: { name: 'big' } })).body,
  ) as { api_key: { key: string } };
  key = project.api_key.key;
  expect((await invoke('languages', { method: 'POST', path: '/v1/languages', headers: { 'x-api-key': key }, body: { code: 'de' } })).statusCode).toBe(201);
  // Two imports of ~3.6 MB each: each within the 4.5 MB an import takes on AWS.
  for (let part = 0; part < 2; part++) {
    const file: Record<string, string> = {};
    for (let i = 0; i < 400; i++) {
      const n = part * 400 + i;
      file[`${part === 0 ? 'home' : 'more'}.k${n}`] = `Wert ${n}: ` + Array.from({ length: 900 }, (_, j) => `w${(n * 7 + j) % 997}x`.padEnd(10, 'y')).join('').slice(0, 8990);
    }
    const imported = await invoke('import', {
      method: 'POST',
      path: '/v1/import/de?format=json&status=approved',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(file),
    });
    expect(imported.statusCode, imported.body.slice(0, 300)).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  for (const handler of Object.values(handlers)) await handler?.deps().sql.end({ timeout: 1 });
  await Promise.all([db?.close(), aws?.close()]);
});

describe('answers larger than Lambda returns (6 MB)', () => {
  for (const [name, path] of [
    ['GET /v1/translations/{language}', '/v1/translations/de'],
    ['GET /v1/export/{language}', '/v1/export/de?format=json'],
  ] as const) {
    it(`${name} of a language of 7 MB: a 413 in the envelope saying how to ask for less, not Lambda's bare 500`, async () => {
      const group = path.startsWith('/v1/export') ? 'export' : 'translations';
      const result = await invoke(group, { method: 'GET', path, headers: { 'x-api-key': key } });
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(LAMBDA_RESPONSE_LIMIT);
      expect(result.statusCode).toBe(413);
      expect(JSON.parse(result.body).detail).toMatch(/more than AWS Lambda can return .*one group/);
      expect(result.headers?.['x-request-id']).toBeTruthy();
      // Half of it (one group's worth) is served.
      const half = await invoke(group, { method: 'GET', path: path.startsWith('/v1/export') ? '/v1/export/de?format=json&group=home' : '/v1/translations/de/home', headers: { 'x-api-key': key } });
      expect(half.statusCode).toBe(200);
    }, 60_000);
  }
});
