// An in-memory SQS speaking the AWS JSON 1.0 protocol of @aws-sdk/client-sqs v3 (no npm package
// does: sqslite only speaks the old query protocol). It keeps the semantics our code relies on:
// visibility timeouts, receive counts with redrive to a dead-letter queue, FIFO deduplication and
// per-group ordering, and correct MD5 digests (the SDK verifies them).
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Message = {
  id: string;
  body: string;
  groupId: string | undefined;
  dedupId: string | undefined;
  sequenceNumber: string | undefined;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt: number | undefined;
  receiptHandle: string | undefined;
};

type Queue = {
  name: string;
  url: string;
  arn: string;
  fifo: boolean;
  attributes: Record<string, string>;
  redrive: { deadLetterTargetArn: string; maxReceiveCount: number } | undefined;
  messages: Message[]; // in send order, which is delivery order
  dedup: Map<string, { messageId: string; expiresAt: number }>;
};

type Input = Record<string, any>;

class SqsError extends Error {
  type: string;
  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

const accountId = '000000000000';
const dedupWindowMs = 5 * 60_000;
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startSqsEmulator(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const queues = new Map<string, Queue>();
  let endpoint = '';
  let sequence = 0;
  let closing = false;

  function queueOf(input: Input): Queue {
    const name = typeof input.QueueUrl === 'string' ? input.QueueUrl.split('/').pop() : undefined;
    const queue = name === undefined ? undefined : queues.get(name);
    if (!queue) throw new SqsError('QueueDoesNotExist', `The specified queue does not exist: ${input.QueueUrl}`);
    return queue;
  }

  function seconds(value: unknown, fallback: string | undefined, max: number, name: string): number {
    const n = Number(value ?? fallback ?? 0);
    if (!Number.isInteger(n) || n < 0 || n > max) throw new SqsError('InvalidParameterValue', `${name} must be 0..${max}`);
    return n;
  }

  function sendOne(queue: Queue, entry: Input, now: number) {
    const body = entry.MessageBody;
    if (typeof body !== 'string' || body === '') throw new SqsError('MissingParameter', 'MessageBody is required');
    if (Buffer.byteLength(body) > 262_144) throw new SqsError('InvalidParameterValue', 'MessageBody is over 256 KiB');
    if (entry.MessageAttributes) throw new SqsError('UnsupportedOperation', 'the emulator has no MessageAttributes');
    const delay = seconds(entry.DelaySeconds, queue.attributes.DelaySeconds, 900, 'DelaySeconds');
    let dedupId: string | undefined;
    if (queue.fifo) {
      if (!entry.MessageGroupId) throw new SqsError('MissingParameter', 'MessageGroupId is required for FIFO queues');
      if (entry.DelaySeconds !== undefined) throw new SqsError('InvalidParameterValue', 'FIFO queues take no per-message DelaySeconds');
      dedupId = entry.MessageDeduplicationId;
      if (!dedupId && queue.attributes.ContentBasedDeduplication === 'true') dedupId = createHash('sha256').update(body).digest('hex');
      if (!dedupId) throw new SqsError('InvalidParameterValue', 'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly');
      // Within the window a duplicate is accepted and answered like the original, but not queued again.
      const seen = queue.dedup.get(dedupId);
      if (seen && seen.expiresAt > now) return { MessageId: seen.messageId, MD5OfMessageBody: md5(body) };
    }
    const message: Message = {
      id: randomUUID(),
      body,
      groupId: queue.fifo ? entry.MessageGroupId : undefined,
      dedupId,
      sequenceNumber: queue.fifo ? String(++sequence).padStart(20, '0') : undefined,
      sentAt: now,
      visibleAt: now + delay * 1000,
      receiveCount: 0,
      firstReceivedAt: undefined,
      receiptHandle: undefined,
    };
    queue.messages.push(message);
    if (dedupId) queue.dedup.set(dedupId, { messageId: message.id, expiresAt: now + dedupWindowMs });
    return { MessageId: message.id, MD5OfMessageBody: md5(body), SequenceNumber: message.sequenceNumber };
  }

  function receiveNow(queue: Queue, input: Input, now: number) {
    const max = seconds(input.MaxNumberOfMessages, '1', 10, 'MaxNumberOfMessages');
    const timeout = seconds(input.VisibilityTimeout, queue.attributes.VisibilityTimeout, 43_200, 'VisibilityTimeout');
    const wanted: string[] = [...(input.AttributeNames ?? []), ...(input.MessageSystemAttributeNames ?? [])];
    const blockedGroups = new Set<string>();
    const received = [];
    for (const message of [...queue.messages]) {
      if (received.length >= max) break;
      if (message.groupId !== undefined && blockedGroups.has(message.groupId)) continue;
      if (message.visibleAt > now) {
        // FIFO: while a group's head is in flight (or delayed), the rest of the group waits.
        if (message.groupId !== undefined) blockedGroups.add(message.groupId);
        continue;
      }
      if (queue.redrive && message.receiveCount >= queue.redrive.maxReceiveCount) {
        moveToDeadLetterQueue(queue, message, now);
        continue;
      }
      message.receiveCount++;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + timeout * 1000;
      message.receiptHandle = `${message.id}#${randomUUID()}`;
      const attributes: Record<string, string | undefined> = {
        SenderId: accountId,
        SentTimestamp: String(message.sentAt),
        ApproximateReceiveCount: String(message.receiveCount),
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
        MessageGroupId: message.groupId,
        MessageDeduplicationId: message.dedupId,
        SequenceNumber: message.sequenceNumber,
      };
      received.push({
        MessageId: message.id,
        ReceiptHandle: message.receiptHandle,
        MD5OfBody: md5(message.body),
        Body: message.body,
        Attributes: Object.fromEntries(
          Object.entries(attributes).filter(([name, value]) => value !== undefined && (wanted.includes('All') || wanted.includes(name))),
        ),
      });
    }
    return received;
  }

  function moveToDeadLetterQueue(queue: Queue, message: Message, now: number) {
    const target = [...queues.values()].find((q) => q.arn === queue.redrive?.deadLetterTargetArn);
    if (!target) throw new SqsError('InternalError', `dead-letter queue ${queue.redrive?.deadLetterTargetArn} is gone`);
    queue.messages.splice(queue.messages.indexOf(message), 1);
    target.messages.push({ ...message, visibleAt: now, receiptHandle: undefined });
  }

  function inFlight(queue: Queue, receiptHandle: unknown): Message | undefined {
    if (typeof receiptHandle !== 'string' || !receiptHandle.includes('#')) {
      throw new SqsError('ReceiptHandleIsInvalid', `The input receipt handle "${receiptHandle}" is not a valid receipt handle.`);
    }
    // A stale handle (the message was received again since) matches nothing, as on SQS.
    return queue.messages.find((m) => m.receiptHandle === receiptHandle);
  }

  function deleteOne(queue: Queue, receiptHandle: unknown) {
    const message = inFlight(queue, receiptHandle);
    if (message) queue.messages.splice(queue.messages.indexOf(message), 1);
  }

  function batch<T>(entries: unknown, run: (entry: Input) => T) {
    if (!Array.isArray(entries) || entries.length === 0) throw new SqsError('EmptyBatchRequest', 'The batch request contains no entries');
    if (entries.length > 10) throw new SqsError('TooManyEntriesInBatchRequest', 'At most 10 entries per batch');
    if (new Set(entries.map((e: Input) => e.Id)).size !== entries.length) throw new SqsError('BatchEntryIdsNotDistinct', 'Two or more batch entries have the same Id');
    const Successful = [];
    const Failed = [];
    for (const entry of entries as Input[]) {
      try {
        Successful.push({ Id: entry.Id, ...run(entry) });
      } catch (err) {
        if (!(err instanceof SqsError)) throw err;
        Failed.push({ Id: entry.Id, SenderFault: true, Code: err.type, Message: err.message });
      }
    }
    return { Successful, Failed };
  }

  const actions: Record<string, (input: Input) => unknown> = {
    CreateQueue(input) {
      const name: unknown = input.QueueName;
      if (typeof name !== 'string' || !/^[\w-]{1,80}(\.fifo)?$/.test(name)) throw new SqsError('InvalidParameterValue', `Invalid queue name ${name}`);
      const existing = queues.get(name);
      if (existing) return { QueueUrl: existing.url };
      const attributes: Record<string, string> = { VisibilityTimeout: '30', DelaySeconds: '0', ReceiveMessageWaitTimeSeconds: '0', ...input.Attributes };
      const fifo = attributes.FifoQueue === 'true';
      if (fifo !== name.endsWith('.fifo')) throw new SqsError('InvalidParameterValue', 'A FIFO queue name must end with .fifo, and only a FIFO queue name may');
      let redrive: Queue['redrive'];
      if (attributes.RedrivePolicy) {
        const policy = JSON.parse(attributes.RedrivePolicy);
        redrive = { deadLetterTargetArn: policy.deadLetterTargetArn, maxReceiveCount: Number(policy.maxReceiveCount) };
        if (![...queues.values()].some((q) => q.arn === redrive?.deadLetterTargetArn)) {
          throw new SqsError('InvalidParameterValue', `Dead-letter queue ${policy.deadLetterTargetArn} does not exist`);
        }
      }
      const url = `${endpoint}/${accountId}/${name}`;
      queues.set(name, { name, url, arn: `arn:aws:sqs:us-east-1:${accountId}:${name}`, fifo, attributes, redrive, messages: [], dedup: new Map() });
      return { QueueUrl: url };
    },
    GetQueueUrl(input) {
      const queue = queues.get(input.QueueName);
      if (!queue) throw new SqsError('QueueDoesNotExist', `The specified queue does not exist: ${input.QueueName}`);
      return { QueueUrl: queue.url };
    },
    GetQueueAttributes(input) {
      const queue = queueOf(input);
      const now = Date.now();
      const count = (test: (m: Message) => boolean) => String(queue.messages.filter(test).length);
      const all: Record<string, string> = {
        ...queue.attributes,
        QueueArn: queue.arn,
        ApproximateNumberOfMessages: count((m) => m.visibleAt <= now),
        ApproximateNumberOfMessagesNotVisible: count((m) => m.visibleAt > now && m.receiveCount > 0),
        ApproximateNumberOfMessagesDelayed: count((m) => m.visibleAt > now && m.receiveCount === 0),
      };
      const names: string[] = input.AttributeNames ?? [];
      return { Attributes: names.includes('All') ? all : Object.fromEntries(Object.entries(all).filter(([n]) => names.includes(n))) };
    },
    SendMessage: (input) => sendOne(queueOf(input), input, Date.now()),
    SendMessageBatch(input) {
      const queue = queueOf(input);
      return batch(input.Entries, (entry) => sendOne(queue, entry, Date.now()));
    },
    async ReceiveMessage(input) {
      const queue = queueOf(input);
      const deadline = Date.now() + 1000 * seconds(input.WaitTimeSeconds, queue.attributes.ReceiveMessageWaitTimeSeconds, 20, 'WaitTimeSeconds');
      // Long polling by re-checking: simple, and 20 ms of latency is nothing in tests.
      for (;;) {
        const messages = receiveNow(queue, input, Date.now());
        if (messages.length > 0 || Date.now() >= deadline || closing) return { Messages: messages };
        await sleep(20);
      }
    },
    DeleteMessage(input) {
      deleteOne(queueOf(input), input.ReceiptHandle);
      return {};
    },
    DeleteMessageBatch(input) {
      const queue = queueOf(input);
      return batch(input.Entries, (entry) => (deleteOne(queue, entry.ReceiptHandle), {}));
    },
    ChangeMessageVisibility(input) {
      const queue = queueOf(input);
      const message = inFlight(queue, input.ReceiptHandle);
      const now = Date.now();
      if (!message || message.visibleAt <= now) throw new SqsError('MessageNotInflight', 'The message is not in flight');
      message.visibleAt = now + 1000 * seconds(input.VisibilityTimeout, undefined, 43_200, 'VisibilityTimeout');
      return {};
    },
  };

  const server = createServer(async (req, res) => {
    let status = 200;
    let payload: unknown;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const target = String(req.headers['x-amz-target'] ?? '');
      const action = target.startsWith('AmazonSQS.') ? actions[target.slice('AmazonSQS.'.length)] : undefined;
      if (!action) throw new SqsError('InvalidAction', `The action ${target} is not valid for this endpoint`);
      payload = await action(chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {});
    } catch (err) {
      const known = err instanceof SqsError;
      status = known ? 400 : 500;
      payload = { __type: `com.amazonaws.sqs#${known ? err.type : 'InternalError'}`, message: String((err as Error).message) };
    }
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() });
    res.end(JSON.stringify(payload));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    async close() {
      closing = true; // ends long polls at their next check
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      });
    },
  };
}
