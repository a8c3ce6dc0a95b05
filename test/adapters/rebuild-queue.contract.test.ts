import { randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import type { Message, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresRebuildQueue, type PostgresRebuildQueue, type PostgresRebuildQueueOptions } from '../../core/adapters/rebuild-queue-postgres.ts';
import { BUILD_FAILED_MESSAGE, readBuildState } from '../../core/cache/build-state.ts';
import { createSql, type Sql } from '../../core/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../core/db/embedded.ts';
import { createMemoryLogger, silentLogger } from '../../core/log.ts';
import { createSqsClient, createSqsRebuildQueue, parseRebuildMessage } from '../../core/adapters/rebuild-queue-sqs.ts';
import type { RebuildMessage, RebuildQueue } from '../../core/ports/rebuild-queue.ts';
import { startSqsEmulator } from '../support/sqs-emulator.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type QueueUnderTest = {
  queue: RebuildQueue;
  /** The next message the consumer side received, in the form the builder would see. */
  next(): Promise<RebuildMessage>;
  /** A project the queue may take requests for (a row in `projects` for the Postgres queue). */
  newProject?(): Promise<string>;
};

const projectOf = (subject: QueueUnderTest) => (subject.newProject ? subject.newProject() : Promise.resolve(randomUUID()));

function rebuildQueueContract(name: string, create: () => Promise<QueueUnderTest>) {
  describe(`RebuildQueue contract: ${name}`, () => {
    let subject: QueueUnderTest;
    beforeEach(async () => {
      subject = await create();
    });

    it('delivers a sent message to the consumer with the same payload', async () => {
      const message = { projectId: await projectOf(subject), seq: 7 };
      await subject.queue.send(message);
      expect(await subject.next()).toEqual(message);
    });

    it('delivers messages of several projects', async () => {
      const messages = await Promise.all([1, 2, 3].map(async (seq) => ({ projectId: await projectOf(subject), seq })));
      for (const message of messages) await subject.queue.send(message);
      const received = [await subject.next(), await subject.next(), await subject.next()];
      expect(received.sort((a, b) => a.seq - b.seq)).toEqual(messages);
    });

    it('refuses sends after close', async () => {
      await subject.queue.close();
      await expect(subject.queue.send({ projectId: randomUUID(), seq: 1 })).rejects.toThrow(/closed/);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Postgres queue (embedded PGlite by default, real Postgres with DATABASE_URL)

let db: TestDatabase;
let embedded: EmbeddedPostgres | undefined;
let pg: Sql;
/** A second pool on the same database, for a second "replica" (real Postgres only: PGlite's socket takes one). */
let pg2: Sql | undefined;
const openQueues: PostgresRebuildQueue[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  if (db.kind === 'embedded') {
    embedded = await startEmbeddedPostgres({ loadDataDir: db.tarball });
    pg = createSql(embedded.url, { path: embedded.path, max: 1, prepare: true, connectTimeoutSeconds: 5 });
  } else {
    pg = createSql(db.url, { max: 4, prepare: true, connectTimeoutSeconds: 5 });
    pg2 = createSql(db.url, { max: 4, prepare: true, connectTimeoutSeconds: 5 });
  }
});
afterAll(async () => {
  await pg?.end();
  await pg2?.end();
  await embedded?.close();
  if (db?.kind === 'postgres') await db.drop();
});
afterEach(async () => {
  for (const queue of openQueues.splice(0)) await queue.close();
  // Each test starts with an empty queue: a leftover row would be built by the next test's worker.
  await pg`delete from cache_state`;
});

async function newProject(): Promise<string> {
  const [row] = await pg<{ id: string }[]>`
    with a as (insert into accounts (name, plan) values ('queue test', 'team') returning id)
    insert into projects (account_id, name) select id, 'queue test' from a returning id`;
  return row!.id;
}

function pgQueue(options: Partial<PostgresRebuildQueueOptions> & Pick<PostgresRebuildQueueOptions, 'handle'>): PostgresRebuildQueue {
  const queue = createPostgresRebuildQueue({ sql: pg, log: silentLogger, pollMs: 50, ...options });
  openQueues.push(queue);
  return queue;
}

/** What requestRebuild does: bump the project's sequence (committed), then send it. */
async function request(queue: RebuildQueue, projectId: string, sql: Sql = pg): Promise<number> {
  const [row] = await sql<{ seq: number }[]>`
    insert into cache_state (project_id, requested_seq) values (${projectId}, 1)
    on conflict (project_id) do update set requested_seq = cache_state.requested_seq + 1, not_before = null
    returning requested_seq::int as seq`;
  await queue.send({ projectId, seq: row!.seq });
  return row!.seq;
}

/** What a build does with cache_state: it covers the sequence it saw when it started. */
async function markBuilt(projectId: string, seq: number, sql: Sql = pg) {
  await sql`update cache_state set built_seq = greatest(built_seq, ${seq}), attempts = 0, failed_at = null, last_error = null where project_id = ${projectId}`;
}

/** A promise with its resolve function, to hold a build open until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

async function until(condition: () => Promise<boolean> | boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

rebuildQueueContract('postgres', async () => {
  const received: RebuildMessage[] = [];
  const waiting: ((message: RebuildMessage) => void)[] = [];
  const queue = pgQueue({
    handle: async (message) => {
      await markBuilt(message.projectId, message.seq);
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else received.push(message);
    },
  });
  return {
    queue,
    newProject,
    next: () => {
      const message = received.shift();
      return message ? Promise.resolve(message) : new Promise((resolve) => waiting.push(resolve));
    },
  };
});

describe('Postgres rebuild queue', () => {
  it('collapses ten requests during a slow build into one more build, with the highest seq', async () => {
    const projectId = await newProject();
    const calls: number[] = [];
    const build = gate();
    const started = gate();
    const queue = pgQueue({
      handle: async ({ seq }) => {
        calls.push(seq);
        started.open();
        await build.opened;
        await markBuilt(projectId, seq);
      },
    });
    await request(queue, projectId);
    await started.opened;
    expect(await readBuildState(pg, projectId)).toMatchObject({ pending: true, build_state: 'building' });
    for (let i = 0; i < 10; i++) await request(queue, projectId);
    build.open();
    await queue.idle();
    expect(calls).toEqual([1, 11]);
    expect(await readBuildState(pg, projectId)).toEqual({ pending: false, build_state: 'idle', failed_at: null, last_error: null });
  });

  it('turns a burst of ten requests into at most two builds even when builds are instant', async () => {
    const projectId = await newProject();
    const calls: number[] = [];
    const queue = pgQueue({
      // A burst is requests closer together than this: wide, since each request here is a
      // database round trip on a shared, loaded machine (the default is 100 ms).
      minIntervalMs: 2000,
      handle: async ({ seq }) => {
        calls.push(seq);
        await markBuilt(projectId, seq);
      },
    });
    for (let i = 0; i < 10; i++) {
      await request(queue, projectId);
      await sleep(2);
    }
    await queue.idle();
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(calls.at(-1)).toBe(10);
  });

  it('never overlaps builds of one project, while different projects build in parallel', async () => {
    const projects = [await newProject(), await newProject()];
    const runningPerProject = new Map<string, number>();
    let running = 0;
    let maxRunning = 0;
    let maxPerProject = 0;
    const queue = pgQueue({
      handle: async ({ projectId, seq }) => {
        const mine = (runningPerProject.get(projectId) ?? 0) + 1;
        runningPerProject.set(projectId, mine);
        maxPerProject = Math.max(maxPerProject, mine);
        maxRunning = Math.max(maxRunning, ++running);
        await sleep(40);
        runningPerProject.set(projectId, mine - 1);
        running--;
        await markBuilt(projectId, seq);
      },
    });
    for (let i = 0; i < 10; i++) {
      for (const projectId of projects) await request(queue, projectId);
      await sleep(10);
    }
    await queue.idle();
    expect(maxPerProject).toBe(1);
    // Two projects can build side by side (on PGlite too: the builds here hold no connection).
    expect(maxRunning).toBe(2);
  });

  it('always ends with a build that started after the last request', async () => {
    const projects = [await newProject(), await newProject(), await newProject()];
    const lastBuildSaw = new Map<string, number>();
    const queue = pgQueue({
      handle: async ({ projectId }) => {
        // A build reads the state when it starts, as the snapshot does.
        const [row] = await pg<{ seq: number }[]>`select requested_seq::int as seq from cache_state where project_id = ${projectId}`;
        await sleep(Math.random() * 10);
        lastBuildSaw.set(projectId, row!.seq);
        await markBuilt(projectId, row!.seq);
      },
    });
    const requested = new Map<string, number>();
    for (let i = 0; i < 30; i++) {
      const projectId = projects[i % projects.length]!;
      requested.set(projectId, await request(queue, projectId));
      if (Math.random() < 0.5) await sleep(Math.random() * 8);
    }
    await queue.idle();
    expect(lastBuildSaw).toEqual(requested);
  });

  it('shows a failed build as failed, retries it after a backoff, and clears the failure once a build succeeds', async () => {
    const projectId = await newProject();
    const log = createMemoryLogger();
    const calls: number[] = [];
    const queue = pgQueue({
      log,
      retryBaseMs: 300,
      handle: async ({ seq }) => {
        calls.push(Date.now());
        if (calls.length === 1) throw new Error('disk full at /secret/path');
        await markBuilt(projectId, seq);
      },
    });
    await request(queue, projectId);
    const failure = () => log.lines.find((line) => line.msg === 'rebuild failed');
    await until(() => calls.length === 1 && failure() !== undefined);
    await until(async () => (await readBuildState(pg, projectId)).build_state === 'failed');
    const failed = await readBuildState(pg, projectId);
    expect(failed).toMatchObject({ pending: true, build_state: 'failed', last_error: BUILD_FAILED_MESSAGE, failed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    expect(JSON.stringify(failed)).not.toContain('secret');
    expect(log.lines[0]).toMatchObject({ level: 'info', msg: 'rebuild started', project_id: projectId, seq: 1 });
    expect(failure()).toMatchObject({ level: 'error', msg: 'rebuild failed', project_id: projectId, seq: 1 });
    expect(String(failure()!.error)).toContain('disk full at /secret/path');
    // Retried by the worker on its own, not before the backoff.
    await until(() => calls.length === 2);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(250);
    await queue.idle();
    expect(await readBuildState(pg, projectId)).toEqual({ pending: false, build_state: 'idle', failed_at: null, last_error: null });
  });

  it('a new request retries a failed build at once instead of waiting for the backoff', async () => {
    const projectId = await newProject();
    const calls: number[] = [];
    const queue = pgQueue({
      retryBaseMs: 60_000,
      handle: async ({ seq }) => {
        calls.push(seq);
        if (calls.length === 1) throw new Error('flaky');
        await markBuilt(projectId, seq);
      },
    });
    await request(queue, projectId);
    await until(async () => (await readBuildState(pg, projectId)).build_state === 'failed');
    await request(queue, projectId);
    await until(() => calls.length === 2);
    expect(calls).toEqual([1, 2]);
  });

  it('builds what was pending before the worker started, and a request held until later only then', async () => {
    const [early, held] = [await newProject(), await newProject()];
    await pg`insert into cache_state (project_id, requested_seq) values (${early}, 3)`;
    await pg`insert into cache_state (project_id, requested_seq, not_before) values (${held}, 1, now() + interval '400 milliseconds')`;
    const built: { projectId: string; at: number }[] = [];
    const started = Date.now();
    const queue = pgQueue({
      handle: async ({ projectId, seq }) => {
        built.push({ projectId, at: Date.now() - started });
        await markBuilt(projectId, seq);
      },
    });
    await until(() => built.length === 2);
    expect(built.map((b) => b.projectId)).toEqual([early, held]);
    expect(built[1]!.at).toBeGreaterThanOrEqual(350);
    await queue.close();
  });

  it('retakes the claim of a worker that died once its lease lapses; a sole worker clears such claims at once', async () => {
    const [lapsing, cleared] = [await newProject(), await newProject()];
    // As a killed process leaves it: claimed, pending, never released.
    await pg`insert into cache_state (project_id, requested_seq, lease_owner, lease_until, last_started_at)
             values (${lapsing}, 1, 'dead-worker', now() + interval '500 milliseconds', now())`;
    const built: { projectId: string; at: number }[] = [];
    const started = Date.now();
    const handle = async ({ projectId, seq }: RebuildMessage) => {
      built.push({ projectId, at: Date.now() - started });
      await markBuilt(projectId, seq);
    };
    expect((await readBuildState(pg, lapsing)).build_state).toBe('building');
    pgQueue({ handle });
    await until(() => built.length === 1);
    expect(built[0]).toMatchObject({ projectId: lapsing });
    expect(built[0]!.at).toBeGreaterThanOrEqual(400);

    await pg`insert into cache_state (project_id, requested_seq, lease_owner, lease_until, last_started_at)
             values (${cleared}, 1, 'dead-worker', now() + interval '1 hour', now() - interval '1 hour')`;
    pgQueue({ handle, soleWorker: true });
    await until(() => built.length === 2);
    expect(built[1]).toMatchObject({ projectId: cleared });
  });

  it('renews its lease while a build runs longer than the lease, so no other worker takes it', async () => {
    const projectId = await newProject();
    const build = gate();
    let calls = 0;
    const handle = async ({ seq }: RebuildMessage) => {
      calls++;
      await build.opened;
      await markBuilt(projectId, seq);
    };
    const first = pgQueue({ handle, leaseMs: 300 });
    await request(first, projectId);
    await until(() => calls === 1);
    pgQueue({ handle, leaseMs: 300 }); // another worker, polling every 50 ms
    await sleep(900);
    expect(calls).toBe(1);
    build.open();
    await first.idle();
    expect(calls).toBe(1);
  });

  it('two workers over one database (two pools on real Postgres) build a burst at most twice, never side by side', async () => {
    const projectId = await newProject();
    let running = 0;
    let overlap = false;
    const builds: string[] = [];
    const worker = (name: string, sql: Sql) =>
      pgQueue({
        sql,
        minIntervalMs: 2000, // wider than the burst on a loaded machine, as in the one-worker burst test
        handle: async ({ seq }) => {
          if (++running > 1) overlap = true;
          builds.push(name);
          await sleep(30);
          running--;
          await markBuilt(projectId, seq, sql);
        },
      });
    const a = worker('a', pg);
    const b = worker('b', pg2 ?? pg);
    for (let i = 0; i < 10; i++) {
      await request(i % 2 ? a : b, projectId, i % 2 ? pg : (pg2 ?? pg));
      await sleep(3);
    }
    await until(async () => !(await readBuildState(pg, projectId)).pending);
    await a.idle();
    await b.idle();
    expect(overlap).toBe(false);
    expect(builds.length).toBeGreaterThanOrEqual(1);
    expect(builds.length).toBeLessThanOrEqual(2);
  });

  it('close() waits for the running build, leaves pending requests for the next worker, and refuses sends', async () => {
    const projectId = await newProject();
    const build = gate();
    const started = gate();
    const calls: number[] = [];
    const queue = pgQueue({
      handle: async ({ seq }) => {
        calls.push(seq);
        started.open();
        await build.opened;
        await markBuilt(projectId, seq);
      },
    });
    await request(queue, projectId);
    await started.opened;
    await request(queue, projectId);
    expect(queue.building()).toBe(1);
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await expect(queue.send({ projectId, seq: 3 })).rejects.toThrow(/closed/);
    await sleep(50);
    expect(closed).toBe(false);
    build.open();
    await closing;
    expect(calls).toEqual([1]);
    expect(await readBuildState(pg, projectId)).toMatchObject({ pending: true, build_state: 'queued' });
    // The next process builds it.
    const next: number[] = [];
    const again = pgQueue({
      handle: async ({ seq }) => {
        next.push(seq);
        await markBuilt(projectId, seq);
      },
    });
    await again.idle();
    expect(next).toEqual([2]);
  });
});


// ---------------------------------------------------------------------------------------------
// SQS queue over the emulator

let emulator: Awaited<ReturnType<typeof startSqsEmulator>>;
let client: SQSClient;
let queueNames = 0;

beforeAll(async () => {
  emulator = await startSqsEmulator();
  client = createSqsClient({ endpoint: emulator.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});
afterAll(async () => {
  client?.destroy();
  await emulator?.close();
});

async function createFifoQueue(attributes: Record<string, string> = {}): Promise<string> {
  const name = `rebuild-${++queueNames}.fifo`;
  const result = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: { FifoQueue: 'true', ...attributes } }));
  return result.QueueUrl!;
}

async function receive(queueUrl: string, options: { max?: number; visibilityTimeout?: number; wait?: number } = {}): Promise<Message[]> {
  const result = await client.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: options.max ?? 1,
      VisibilityTimeout: options.visibilityTimeout,
      WaitTimeSeconds: options.wait ?? 0,
      MessageSystemAttributeNames: ['All'],
    }),
  );
  return result.Messages ?? [];
}

async function visibleCount(queueUrl: string): Promise<number> {
  const result = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }));
  return Number(result.Attributes?.ApproximateNumberOfMessages);
}

rebuildQueueContract('sqs', async () => {
  const queueUrl = await createFifoQueue();
  return {
    queue: createSqsRebuildQueue({ queueUrl, client }),
    // What the builder Lambda does with a record: parse, build, then acknowledge by deleting.
    async next() {
      for (;;) {
        const [message] = await receive(queueUrl, { wait: 1 });
        if (!message) continue;
        await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
        return parseRebuildMessage(message.Body!);
      }
    },
  };
});

describe('SQS rebuild queue over the emulator', () => {
  it('sends JSON with the project as message group and project:seq as deduplication id', async () => {
    const queueUrl = await createFifoQueue();
    const projectId = randomUUID();
    await createSqsRebuildQueue({ queueUrl, client }).send({ projectId, seq: 42 });
    const [message] = await receive(queueUrl);
    expect(JSON.parse(message!.Body!)).toEqual({ projectId, seq: 42 });
    expect(message!.Attributes).toMatchObject({ MessageGroupId: projectId, MessageDeduplicationId: `${projectId}:42`, ApproximateReceiveCount: '1' });
  });

  it('hands out one message of a group at a time, in order, while other groups proceed', async () => {
    const queueUrl = await createFifoQueue();
    const queue = createSqsRebuildQueue({ queueUrl, client });
    const [a, b] = [randomUUID(), randomUUID()];
    await queue.send({ projectId: a, seq: 1 });
    await queue.send({ projectId: a, seq: 2 });
    await queue.send({ projectId: b, seq: 1 });
    const [first] = await receive(queueUrl);
    expect(parseRebuildMessage(first!.Body!)).toEqual({ projectId: a, seq: 1 });
    const [second] = await receive(queueUrl); // a's head is in flight: a:2 must wait
    expect(parseRebuildMessage(second!.Body!)).toEqual({ projectId: b, seq: 1 });
    expect(await receive(queueUrl)).toEqual([]);
    await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: first!.ReceiptHandle }));
    const [third] = await receive(queueUrl);
    expect(parseRebuildMessage(third!.Body!)).toEqual({ projectId: a, seq: 2 });
  });

  it('returns several messages of a group in order within one receive', async () => {
    const queueUrl = await createFifoQueue();
    const queue = createSqsRebuildQueue({ queueUrl, client });
    const projectId = randomUUID();
    for (let seq = 1; seq <= 4; seq++) await queue.send({ projectId, seq });
    const messages = await receive(queueUrl, { max: 10 });
    expect(messages.map((m) => parseRebuildMessage(m.Body!).seq)).toEqual([1, 2, 3, 4]);
  });

  it('drops a duplicate send of the same project and seq', async () => {
    const queueUrl = await createFifoQueue();
    const queue = createSqsRebuildQueue({ queueUrl, client });
    const projectId = randomUUID();
    await queue.send({ projectId, seq: 1 });
    await queue.send({ projectId, seq: 1 });
    expect(await visibleCount(queueUrl)).toBe(1);
    await queue.send({ projectId, seq: 2 });
    expect(await visibleCount(queueUrl)).toBe(2);
  });

  it('redelivers a message that was not deleted once its visibility timeout expires', async () => {
    const queueUrl = await createFifoQueue();
    await createSqsRebuildQueue({ queueUrl, client }).send({ projectId: randomUUID(), seq: 1 });
    const [first] = await receive(queueUrl, { visibilityTimeout: 1 });
    expect(await receive(queueUrl)).toEqual([]);
    await sleep(1100);
    const [again] = await receive(queueUrl, { visibilityTimeout: 30 });
    expect(again!.MessageId).toBe(first!.MessageId);
    expect(again!.Attributes!.ApproximateReceiveCount).toBe('2');
    // A stale receipt handle deletes nothing, as on SQS.
    await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: first!.ReceiptHandle }));
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: again!.ReceiptHandle, VisibilityTimeout: 0 }));
    const [third] = await receive(queueUrl);
    expect(third!.Attributes!.ApproximateReceiveCount).toBe('3');
  });

  it('moves a poison message to the dead-letter queue after maxReceiveCount receives', async () => {
    const dlqUrl = await createFifoQueue();
    const dlq = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }));
    const redrive = { deadLetterTargetArn: dlq.Attributes!.QueueArn, maxReceiveCount: 3 };
    const queueUrl = await createFifoQueue({ RedrivePolicy: JSON.stringify(redrive) });
    const poison = '{"projectId":"not-a-uuid","seq":-1}';
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: poison, MessageGroupId: 'g', MessageDeduplicationId: 'poison' }));

    // The builder rejects it each time; visibility 0 stands in for the failed record coming back.
    let receives = 0;
    for (;;) {
      const [message] = await receive(queueUrl, { visibilityTimeout: 0 });
      if (!message) break;
      receives++;
      expect(() => parseRebuildMessage(message.Body!)).toThrow(/Invalid rebuild message/);
    }
    expect(receives).toBe(3);
    expect(await visibleCount(queueUrl)).toBe(0);
    const [dead] = await receive(dlqUrl);
    expect(dead!.Body).toBe(poison);
  });

  it('answers long polls as soon as a message arrives', async () => {
    const queueUrl = await createFifoQueue();
    const started = Date.now();
    const polling = receive(queueUrl, { wait: 5 });
    await sleep(100);
    await createSqsRebuildQueue({ queueUrl, client }).send({ projectId: randomUUID(), seq: 1 });
    expect(await polling).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('sends and deletes in batches', async () => {
    const queueUrl = await createFifoQueue();
    const entries = [1, 2, 3].map((seq) => ({ Id: `m${seq}`, MessageBody: `body ${seq}`, MessageGroupId: `g${seq}`, MessageDeduplicationId: `d${seq}` }));
    const sent = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    expect(sent.Successful).toHaveLength(3);
    const messages = await receive(queueUrl, { max: 10 });
    expect(messages.map((m) => m.Body)).toEqual(['body 1', 'body 2', 'body 3']);
    const deleted = await client.send(
      new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: messages.map((m, i) => ({ Id: `d${i}`, ReceiptHandle: m.ReceiptHandle })) }),
    );
    expect(deleted.Successful).toHaveLength(3);
    expect(await visibleCount(queueUrl)).toBe(0);
  });

  it('answers errors the way the SDK understands', async () => {
    await expect(client.send(new GetQueueUrlCommand({ QueueName: 'missing.fifo' }))).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    const queueUrl = await createFifoQueue();
    await expect(client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'x', MessageDeduplicationId: 'x' }))).rejects.toMatchObject({
      name: 'MissingParameter',
    });
    await expect(client.send(new CreateQueueCommand({ QueueName: 'not-fifo', Attributes: { FifoQueue: 'true' } }))).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
    expect((await client.send(new GetQueueUrlCommand({ QueueName: 'rebuild-1.fifo' }))).QueueUrl).toMatch(/\/rebuild-1\.fifo$/);
  });
});

describe('parseRebuildMessage', () => {
  const projectId = randomUUID();

  it('accepts a valid body and ignores unknown fields', () => {
    expect(parseRebuildMessage(JSON.stringify({ projectId, seq: 0 }))).toEqual({ projectId, seq: 0 });
    expect(parseRebuildMessage(JSON.stringify({ projectId, seq: 3, extra: true }))).toEqual({ projectId, seq: 3 });
  });

  it.each([
    ['not JSON', '{nope', /not JSON/],
    ['null', 'null', /Invalid rebuild message/],
    ['an array', '[]', /Invalid rebuild message/],
    ['a non-UUID projectId', JSON.stringify({ projectId: 'p1', seq: 1 }), /projectId: projectId must be a UUID/],
    ['a negative seq', JSON.stringify({ projectId, seq: -1 }), /seq: seq must not be negative/],
    ['a fractional seq', JSON.stringify({ projectId, seq: 1.5 }), /seq: seq must be an integer/],
    ['a string seq', JSON.stringify({ projectId, seq: '1' }), /seq:/],
    ['a missing seq', JSON.stringify({ projectId }), /seq:/],
  ])('rejects %s', (_, body, error) => {
    expect(() => parseRebuildMessage(body)).toThrow(error);
  });
});
