// `tms mcp`'s stdio transport: one JSON-RPC message (or batch) per line, as the MCP spec's stdio
// transport has it. The SDK's own stdio transport answers nothing to a line that is not JSON (the
// client waits for ever), drops batches (protocol 2025-03-26 requires receiving them), and closes
// on a line past its buffer. This one answers each of those with JSON-RPC's errors and goes on, and
// knows which requests are still unanswered, so that the command can answer them before it exits.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Id = string | number;

/** A line longer than this is refused (an import_file of a 10 MiB file, escaped, fits). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

const errorAnswer = (id: Id | null, code: number, message: string) => ({ jsonrpc: '2.0' as const, id, error: { code, message } });

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private buffered = 0;
  private skipping = false;
  private closed = false;
  /** Requests received and not yet answered, by id. */
  private readonly pending = new Set<Id>();
  /** Each batch still collecting its answers: the ids it waits for, and the answers so far. */
  private readonly batches: { waiting: Set<Id>; answers: unknown[] }[] = [];
  private idle: (() => void) | undefined;

  private readonly stdin: NodeJS.ReadableStream;
  private readonly stdout: NodeJS.WritableStream;

  constructor(stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream) {
    this.stdin = stdin;
    this.stdout = stdout;
  }

  private readonly onData = (chunk: Buffer) => {
    for (let start = 0; start < chunk.length; ) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.skipping) {
        this.chunks.push(chunk.subarray(start, end));
        this.buffered += end - start;
        if (this.buffered > MAX_LINE_BYTES) {
          this.chunks = [];
          this.buffered = 0;
          this.skipping = true;
          this.write(errorAnswer(null, INVALID_REQUEST, `a message longer than ${MAX_LINE_BYTES} bytes was refused`));
        }
      }
      if (newline === -1) break;
      if (!this.skipping) this.line(Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, ''));
      this.chunks = [];
      this.buffered = 0;
      this.skipping = false;
      start = newline + 1;
    }
  };

  private readonly onError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  private line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.write(errorAnswer(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`));
      return;
    }
    if (!Array.isArray(value)) {
      const message = this.checked(value);
      if ('invalid' in message) {
        if (message.error !== undefined) void this.write(message.error);
      } else this.deliver(message);
      return;
    }
    if (value.length === 0) return void this.write(errorAnswer(null, INVALID_REQUEST, 'Invalid Request: an empty batch'));
    const batch = { waiting: new Set<Id>(), answers: [] as unknown[] };
    const valid: JSONRPCMessage[] = [];
    for (const item of value) {
      const message = this.checked(item);
      if ('invalid' in message) {
        if (message.error !== undefined) batch.answers.push(message.error);
      } else {
        valid.push(message);
        if (isRequest(message)) batch.waiting.add(message.id);
      }
    }
    if (batch.waiting.size > 0) this.batches.push(batch);
    else if (batch.answers.length > 0) this.write(batch.answers);
    for (const message of valid) this.deliver(message);
  }

  /** The message if it is one, else `{ invalid, error }` with the answer it gets (none for a notification). */
  private checked(value: unknown): JSONRPCMessage | { invalid: true; error?: unknown } {
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    const id = (value as { id?: unknown } | null)?.id;
    const hasId = typeof id === 'string' || typeof id === 'number';
    const isNotification = value !== null && typeof value === 'object' && 'method' in value && !('id' in value);
    return isNotification ? { invalid: true } : { invalid: true, error: errorAnswer(hasId ? id : null, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message') };
  }

  private deliver(message: JSONRPCMessage): void {
    if (isRequest(message)) this.pending.add(message.id);
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const id = 'id' in message && !('method' in message) ? (message.id as Id | undefined) : undefined;
    if (id !== undefined) {
      this.pending.delete(id);
      const batch = this.batches.find((b) => b.waiting.has(id));
      if (batch) {
        batch.waiting.delete(id);
        batch.answers.push(message);
        if (batch.waiting.size === 0) {
          this.batches.splice(this.batches.indexOf(batch), 1);
          await this.write(batch.answers);
        }
        this.checkIdle();
        return;
      }
    }
    await this.write(message);
    this.checkIdle();
  }

  /** Resolves once every request received so far has its answer written. */
  answered(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }

  private checkIdle(): void {
    if (this.pending.size === 0 && this.idle) {
      const idle = this.idle;
      this.idle = undefined;
      idle();
    }
  }

  private write(value: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(value) + '\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
  }
}

function isRequest(message: unknown): message is { id: Id; method: string } {
  return typeof message === 'object' && message !== null && 'method' in message && 'id' in message;
}
