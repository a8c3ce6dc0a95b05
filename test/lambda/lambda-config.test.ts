// Linked resources -> Config -> Deps, as a Lambda entry does it on its first invocation: which link
// becomes which setting, what Lambda forces, and the errors a missing link gives. No AWS and no
// database is reached here (the URLs point at closed ports): Deps are made without connecting.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LambdaEvent } from 'hono/aws-lambda';
import { ConfigError } from '../../core/config.ts';
import { linkedEnv, lambdaConfig } from '../../functions/lambda/resource-env.ts';
import { httpHandler, safeRawPath } from '../../functions/lambda/http-handler.ts';
import { createLambdaDeps } from '../../functions/lambda/lambda-deps.ts';
import { s3Objects } from '../../functions/lambda/s3-objects.ts';
import { sqsQueue } from '../../functions/lambda/sqs-queue.ts';
import { sqsDeadLetter } from '../../functions/lambda/sqs-dead-letter.ts';
import { upstashCounters } from '../../functions/lambda/upstash-counters.ts';
import { keysGroup } from '../../functions/keys/routes.ts';
import { adminGroup } from '../../functions/admin/routes.ts';
import { healthGroup } from '../../functions/health/routes.ts';
import { answerOf, apiGatewayEvent, captureJsonLogs, replaceLinks, type HttpRequest, type LambdaHttpResult } from '../support/lambda-events.ts';

const nowhere = 'postgres://tms@127.0.0.1:1/tms';
const saved = { ...process.env };
const logged = captureJsonLogs();

beforeEach(() => {
  replaceLinks({});
  process.env.LOG_REQUESTS = 'false';
  // The suite's own DATABASE_URL (real-Postgres runs) is not a Lambda's.
  delete process.env.DATABASE_URL;
});
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

const call = async (handler: ReturnType<typeof httpHandler>, request: HttpRequest) =>
  answerOf((await handler(apiGatewayEvent(request) as unknown as LambdaEvent)) as LambdaHttpResult);

describe('linked resources to config', () => {
  it('maps each link to the setting core/config.ts knows, over the environment', () => {
    process.env.DATABASE_URL = 'postgres://from-env/ignored';
    process.env.S3_ENDPOINT = 'http://127.0.0.1:9000'; // not a link: passes through
    replaceLinks({
      DatabaseUrl: { value: nowhere },
      UpstashRedisRestUrl: { value: 'https://eu1.upstash.io' },
      UpstashRedisRestToken: { value: 'tok' },
      AdminToken: { value: 'adm' },
      TranslationsBucket: { name: 'tms-prod-translations' },
      RebuildQueue: { url: 'https://sqs.eu-west-1.amazonaws.com/1/rebuild.fifo' },
      RebuildDeadLetterQueue: { url: 'https://sqs.eu-west-1.amazonaws.com/1/dead.fifo' },
      EdgeCache: { distributionId: 'E2EXAMPLE' },
    });
    expect(linkedEnv()).toEqual({
      DATABASE_URL: nowhere,
      UPSTASH_REDIS_REST_URL: 'https://eu1.upstash.io',
      UPSTASH_REDIS_REST_TOKEN: 'tok',
      TMS_ADMIN_TOKEN: 'adm',
      S3_BUCKET: 'tms-prod-translations',
      SQS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/rebuild.fifo',
      SQS_DEAD_LETTER_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/dead.fifo',
      CLOUDFRONT_DISTRIBUTION_ID: 'E2EXAMPLE',
    });
    const config = lambdaConfig();
    expect(config).toMatchObject({ DATABASE_URL: nowhere, S3_BUCKET: 'tms-prod-translations', S3_ENDPOINT: 'http://127.0.0.1:9000' });
  });

  it('forces what Lambda needs: one connection by default, /tmp, no debounce timers', () => {
    replaceLinks({ DatabaseUrl: { value: nowhere } });
    process.env.TMS_DATA_DIR = './.tms';
    process.env.AUTO_REBUILD_DEBOUNCE_MS = '2000';
    delete process.env.DATABASE_POOL_MAX;
    expect(lambdaConfig()).toMatchObject({ DATABASE_POOL_MAX: 1, TMS_DATA_DIR: '/tmp/tms', AUTO_REBUILD_DEBOUNCE_MS: 0, DATABASE_PREPARE: true });
    // The stack's environment still decides the pool size and prepared statements.
    process.env.DATABASE_POOL_MAX = '2';
    process.env.DATABASE_PREPARE = 'false';
    expect(lambdaConfig()).toMatchObject({ DATABASE_POOL_MAX: 2, DATABASE_PREPARE: false });
  });

  it('refuses to start without a database, naming the link', () => {
    expect(() => lambdaConfig()).toThrow(ConfigError);
    expect(() => lambdaConfig()).toThrow(/DATABASE_URL is required on Lambda: link the DatabaseUrl secret/);
  });

  it('refuses a link without the field it should carry', () => {
    replaceLinks({ DatabaseUrl: { value: nowhere }, TranslationsBucket: { arn: 'arn:aws:s3:::x' } });
    expect(() => lambdaConfig()).toThrow('Linked resource TranslationsBucket has no string "name"');
  });

  it('a port whose link is missing names it', () => {
    replaceLinks({ DatabaseUrl: { value: nowhere } });
    const config = lambdaConfig();
    expect(() => s3Objects(config)).toThrow('S3_BUCKET is required by this function: link TranslationsBucket to it');
    expect(() => sqsQueue(config)).toThrow('SQS_QUEUE_URL is required by this function: link RebuildQueue to it');
    expect(sqsDeadLetter(config)).toBeUndefined();
    expect(() => upstashCounters(config)).toThrow(/UPSTASH_REDIS_REST_URL/);
  });
});

describe('the entry on its first invocation', () => {
  it('a missing link fails the invocation with the reason, and a later one succeeds once linked', async () => {
    replaceLinks({ DatabaseUrl: { value: nowhere } });
    const handler = httpHandler(keysGroup, { queue: sqsQueue });
    await expect(call(handler, { method: 'GET', path: '/v1/keys' })).rejects.toThrow('link RebuildQueue');
    replaceLinks({ DatabaseUrl: { value: nowhere }, RebuildQueue: { url: 'http://127.0.0.1:1/000000000000/rebuild.fifo' } });
    // A malformed key is refused before any database read.
    const answer = await call(handler, { method: 'GET', path: '/v1/keys', headers: { 'x-api-key': 'nope' } });
    expect(answer.status).toBe(401);
    expect(answer.json()).toEqual({ detail: 'Invalid API key' });
    await handler.deps().sql.end();
  });

  it('the admin API stays closed in a function not linked to AdminToken', async () => {
    replaceLinks({ DatabaseUrl: { value: nowhere } });
    const handler = httpHandler(adminGroup, {});
    for (const authorization of ['Bearer ', 'Bearer x', 'Bearer undefined']) {
      const answer = await call(handler, { method: 'POST', path: '/admin/v1/accounts', headers: { authorization }, body: { name: 'a', plan: 'free' } });
      expect(answer.status).toBe(401);
    }
    expect(handler.deps().adminToken).toBe('');
    await handler.deps().sql.end();
  });

  it('counters: Upstash when linked, otherwise per-instance memory', async () => {
    replaceLinks({ DatabaseUrl: { value: nowhere } });
    const memory = httpHandler(healthGroup, {});
    expect((await call(memory, { method: 'GET', path: '/health' })).json()).toEqual({ status: 'degraded', db: 'error', redis: 'ok' });
    expect(logged.map((l) => l.msg)).toContain('UPSTASH_REDIS_REST_URL/TOKEN not linked: daily quotas are counted per Lambda instance');
    logged.length = 0;
    replaceLinks({
      DatabaseUrl: { value: nowhere },
      UpstashRedisRestUrl: { value: 'http://127.0.0.1:1' },
      UpstashRedisRestToken: { value: 'tok' },
    });
    const upstash = httpHandler(healthGroup, {});
    const health = await call(upstash, { method: 'GET', path: '/health' });
    expect(health.status).toBe(503);
    expect(health.json()).toEqual({ status: 'degraded', db: 'error', redis: 'error' });
    expect(logged.map((l) => l.msg)).not.toContain('UPSTASH_REDIS_REST_URL/TOKEN not linked: daily quotas are counted per Lambda instance');
    await Promise.all([memory.deps().sql.end(), upstash.deps().sql.end()]);
  });

  // A dev stage deployed without Upstash: the two secrets keep their placeholder, "none" (stacks/
  // secrets.ts). Passed on as a URL, every HTTP function failed its configuration at cold start.
  it('counters: Upstash secrets left at their placeholder count per instance, and the functions answer', async () => {
    replaceLinks({
      DatabaseUrl: { value: nowhere },
      UpstashRedisRestUrl: { value: 'none' },
      UpstashRedisRestToken: { value: 'none' },
      MachineTranslationKey: { value: 'none' },
    });
    expect(linkedEnv()).toEqual({ DATABASE_URL: nowhere });
    expect(lambdaConfig().UPSTASH_REDIS_REST_URL).toBeUndefined();
    const handler = httpHandler(healthGroup, {});
    expect((await call(handler, { method: 'GET', path: '/health' })).json()).toEqual({ status: 'degraded', db: 'error', redis: 'ok' });
    expect((await call(handler, { method: 'GET', path: '/nothing-here' })).status).toBe(404);
    expect(logged.map((l) => l.msg)).toContain('UPSTASH_REDIS_REST_URL/TOKEN not linked: daily quotas are counted per Lambda instance');
    await handler.deps().sql.end();
  });

  it('the builder takes no counters and no queue: guards that say so', async () => {
    replaceLinks({ DatabaseUrl: { value: nowhere }, TranslationsBucket: { name: 'b' } });
    const deps = createLambdaDeps(lambdaConfig(), { objects: s3Objects });
    await expect(deps.queue.send({ projectId: crypto.randomUUID(), seq: 1 })).rejects.toMatchObject({
      code: 'dependency',
      message: 'queue is not configured for this function',
    });
    await expect(deps.queue.close()).resolves.toBeUndefined();
    await deps.sql.end();
  });
});

describe('paths from API Gateway', () => {
  it('escapes what cannot appear in an encoded path, and leaves encoded paths alone', () => {
    expect(safeRawPath('/v1/translations/de/faq/what? #1')).toBe('/v1/translations/de/faq/what%3F%20%231');
    expect(safeRawPath('/v1/groups/Main menü')).toBe('/v1/groups/Main%20men%C3%BC');
    expect(safeRawPath('/v1/x/100%')).toBe('/v1/x/100%25');
    expect(safeRawPath('/v1/x/👋')).toBe('/v1/x/%F0%9F%91%8B');
    for (const encoded of ['/v1/groups/Main%20menu', '/v1/translations/de/faq/what%3F%20%231', '/v1/keys']) {
      expect(safeRawPath(encoded)).toBe(encoded);
    }
  });
});
