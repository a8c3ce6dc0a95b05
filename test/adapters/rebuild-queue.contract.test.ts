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
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createInProcessRebuildQueue } from '../../core/adapters/rebuild-queue-memory.ts';
import { createSqsClient, createSqsRebuildQueue, parseRebuildMessage } from '../../core/adapters/rebuild-queue-sqs.ts';
import { createMemoryLogger, silentLogger } from '../../core/log.ts';
import type { RebuildMessage, RebuildQueue } from '../../core/ports/rebuild-queue.ts';
import { startSqsEmulator } from '../support/sqs-emulator.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise with its resolve function, to hold a build open until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

type QueueUnderTest = {
  queue: RebuildQueue;
  /** The next message the consumer side received, in the form the builder would see. */
  next(): Promise<RebuildMessage>;
};

function rebuildQueueContract(name: string, create: () => Promise<QueueUnderTest>) {
  describe(`RebuildQueue contract: ${name}`, () => {
    let subject: QueueUnderTest;
    beforeEach(async () => {
      subject = await create();
    });

    it('delivers a sent message to the consumer with the same payload', async () => {
      const message = { projectId: randomUUID(), seq: 7 };
      await subject.queue.send(message);
      expect(await subject.next()).toEqual(message);
    });

    it('delivers messages of several projects', async () => {
      const messages = [0, 1, 2].map((seq) => ({ projectId: randomUUID(), seq }));
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
// In-process queue

rebuildQueueContract('in-process', async () => {
  const received: RebuildMessage[] = [];
  const waiting: ((message: RebuildMessage) => void)[] = [];
  const queue = createInProcessRebuildQueue({
    log: silentLogger,
    handle: async (message) => {
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else received.push(message);
    },
  });
  return {
    queue,
    next: () => {
      const message = received.shift();
      return message ? Promise.resolve(message) : new Promise((resolve) => waiting.push(resolve));
    },
  };
});

describe('in-process rebuild queue', () => {
  it('collapses ten sends during a slow build into one more build, with the highest seq', async () => {
    const projectId = randomUUID();
    const calls: number[] = [];
    const build = gate();
    const started = gate();
    const queue = createInProcessRebuildQueue({
      log: silentLogger,
      handle: async ({ seq }) => {
        calls.push(seq);
        started.open();
        await build.opened;
      },
    });
    await queue.send({ projectId, seq: 0 });
    await started.opened;
    for (let seq = 1; seq <= 10; seq++) await queue.send({ projectId, seq });
    build.open();
    await queue.idle();
    expect(calls).toEqual([0, 10]);
  });

  it('turns a burst of ten sends into at most two builds even when builds are instant', async () => {
    const projectId = randomUUID();
    const calls: { seq: number; at: number }[] = [];
    const queue = createInProcessRebuildQueue({ log: silentLogger, handle: async ({ seq }) => void calls.push({ seq, at: Date.now() }) });
    const sentAt = Date.now();
    for (let seq = 1; seq <= 10; seq++) {
      await queue.send({ projectId, seq });
      await sleep(2); // calls a few milliseconds apart, slower than the builds themselves
    }
    await queue.idle();
    expect(calls.map((c) => c.seq)).toEqual([1, 10]);
    expect(calls[0]!.at - sentAt, 'a lone rebuild is not delayed').toBeLessThan(20);
  });

  it('with minIntervalMs 0, builds again as soon as the previous build finished', async () => {
    const projectId = randomUUID();
    const calls: number[] = [];
    const queue = createInProcessRebuildQueue({ log: silentLogger, minIntervalMs: 0, handle: async ({ seq }) => void calls.push(seq) });
    for (let seq = 1; seq <= 3; seq++) {
      await queue.send({ projectId, seq });
      await sleep(5);
    }
    await queue.idle();
    expect(calls).toEqual([1, 2, 3]);
  });

  it('keeps the highest seq when sends arrive out of order', async () => {
    const projectId = randomUUID();
    const calls: number[] = [];
    const build = gate();
    const queue = createInProcessRebuildQueue({
      log: silentLogger,
      handle: async ({ seq }) => {
        calls.push(seq);
        await build.opened;
      },
    });
    await queue.send({ projectId, seq: 1 });
    await queue.send({ projectId, seq: 5 });
    await queue.send({ projectId, seq: 3 });
    build.open();
    await queue.idle();
    expect(calls).toEqual([1, 5]);
  });

  it('returns from send before the build finishes', async () => {
    const build = gate();
    let finished = false;
    const queue = createInProcessRebuildQueue({
      log: silentLogger,
      handle: async () => {
        await build.opened;
        finished = true;
      },
    });
    await queue.send({ projectId: randomUUID(), seq: 1 });
    expect(finished).toBe(false);
    build.open();
    await queue.idle();
    expect(finished).toBe(true);
  });

  it('never overlaps builds of one project, while different projects build in parallel', async () => {
    const projects = [randomUUID(), randomUUID()];
    const runningPerProject = new Map<string, number>();
    let running = 0;
    let maxRunning = 0;
    let maxPerProject = 0;
    const queue = createInProcessRebuildQueue({
      log: silentLogger,
      handle: async ({ projectId }) => {
        const mine = (runningPerProject.get(projectId) ?? 0) + 1;
        runningPerProject.set(projectId, mine);
        maxPerProject = Math.max(maxPerProject, mine);
        maxRunning = Math.max(maxRunning, ++running);
        await sleep(15);
        runningPerProject.set(projectId, mine - 1);
        running--;
      },
    });
    for (let seq = 1; seq <= 20; seq++) {
      for (const projectId of projects) await queue.send({ projectId, seq });
      await sleep(4);
    }
    await queue.idle();
    expect(maxPerProject).toBe(1);
    expect(maxRunning).toBe(2);
  });

  it('always ends with a build that saw every write committed before the last send', async () => {
    const projects: string[] = [randomUUID(), randomUUID(), randomUUID()];
    const committed = new Map(projects.map((p) => [p, 0])); // stands in for the database
    const lastBuildSaw = new Map<string, number>();
    const queue = createInProcessRebuildQueue({
      log: silentLogger,
      handle: async ({ projectId }) => {
        const snapshot = committed.get(projectId)!; // a build reads the state when it starts
        await sleep(Math.random() * 5);
        lastBuildSaw.set(projectId, snapshot);
      },
    });
    for (let i = 0; i < 60; i++) {
      const projectId = projects[i % projects.length]!;
      const version = committed.get(projectId)! + 1;
      committed.set(projectId, version);
      await queue.send({ projectId, seq: version });
      if (Math.random() < 0.5) await sleep(Math.random() * 4);
    }
    await queue.idle();
    expect(lastBuildSaw).toEqual(committed);
  });

  it('logs a failing build and still runs later ones', async () => {
    const projectId = randomUUID();
    const log = createMemoryLogger();
    const calls: number[] = [];
    const queue = createInProcessRebuildQueue({
      log,
      handle: async ({ seq }) => {
        calls.push(seq);
        if (seq === 1) throw new Error('build exploded');
      },
    });
    await queue.send({ projectId, seq: 1 });
    await queue.idle();
    await queue.send({ projectId, seq: 2 });
    await queue.idle();
    expect(calls).toEqual([1, 2]);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({ level: 'error', msg: 'rebuild failed', projectId, seq: 1 });
    expect(String(log.lines[0]!.error)).toContain('build exploded');
  });

  it('close() waits for the running and the pending build, and refuses new sends', async () => {
    const projectId = randomUUID();
    const finished: number[] = [];
    const build = gate();
    const queue = createInProcessRebuildQueue({
      log: silentLogger,
      handle: async ({ seq }) => {
        await build.opened;
        finished.push(seq);
      },
    });
    await queue.send({ projectId, seq: 1 });
    await queue.send({ projectId, seq: 2 });
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await expect(queue.send({ projectId, seq: 3 })).rejects.toThrow(/closed/);
    await sleep(10);
    expect(closed).toBe(false);
    build.open();
    await closing;
    expect(finished).toEqual([1, 2]);
  });

  it('idle() resolves at once when nothing runs, and otherwise only after the last build, also one sent while waiting', async () => {
    const projectId = randomUUID();
    const finished: number[] = [];
    const builds = [gate(), gate()];
    const queue = createInProcessRebuildQueue({
      log: silentLogger,
      minIntervalMs: 0,
      handle: async ({ seq }) => {
        await builds[seq - 1]!.opened;
        finished.push(seq);
      },
    });
    const settledWithin = (promise: Promise<unknown>, ms: number) =>
      Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);

    expect(await settledWithin(queue.idle(), 50), 'nothing sent: idle at once').toBe(true);

    await queue.send({ projectId, seq: 1 });
    let idle = false;
    const idling = queue.idle().then(() => (idle = true));
    await sleep(10);
    expect(idle, 'a build is running').toBe(false);
    await queue.send({ projectId, seq: 2 }); // joins while idle() waits
    builds[0]!.open();
    await sleep(10);
    expect(finished).toEqual([1]);
    expect(idle, 'the build sent while waiting is pending').toBe(false);
    builds[1]!.open();
    await idling;
    expect(finished).toEqual([1, 2]);
    expect(await settledWithin(queue.idle(), 50), 'all done: idle at once again').toBe(true);
    await queue.close();
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
