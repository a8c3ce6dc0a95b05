// Speaks Upstash's REST protocol on one side and RESP2 to a real Redis on the other, so the Upstash
// adapter is tested against real Redis semantics (atomicity, expiry). Raw RESP rather than a Redis
// client library, because client reply transformers would change what the REST side returns.
import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

class ReplyError extends Error {}
type Reply = string | number | null | Buffer | ReplyError | Reply[];

/** One reply starting at `pos`, or undefined while more bytes are needed. */
function parseReply(buf: Buffer, pos: number): [Reply, number] | undefined {
  const eol = buf.indexOf('\r\n', pos);
  if (eol < 0) return undefined;
  const line = buf.toString('utf8', pos + 1, eol);
  const next = eol + 2;
  switch (buf[pos]) {
    case 0x2b /* + */: return [line, next];
    case 0x2d /* - */: return [new ReplyError(line), next];
    case 0x3a /* : */: return [Number(line), next];
    case 0x24 /* $ */: {
      const length = Number(line);
      if (length < 0) return [null, next];
      const end = next + length;
      return buf.length < end + 2 ? undefined : [buf.subarray(next, end), end + 2];
    }
    case 0x2a /* * */: {
      const count = Number(line);
      if (count < 0) return [null, next];
      const items: Reply[] = [];
      let at = next;
      for (let i = 0; i < count; i++) {
        const parsed = parseReply(buf, at);
        if (!parsed) return undefined;
        items.push(parsed[0]);
        at = parsed[1];
      }
      return [items, at];
    }
    default: throw new Error(`Unexpected RESP type byte ${buf[pos]}`);
  }
}

function encodeCommand(args: unknown[]): Buffer {
  const parts = args.map((a) => Buffer.from(typeof a === 'string' ? a : JSON.stringify(a)));
  const bulks = parts.flatMap((p) => [Buffer.from(`$${p.length}\r\n`), p, Buffer.from('\r\n')]);
  return Buffer.concat([Buffer.from(`*${parts.length}\r\n`), ...bulks]);
}

/**
 * One shared connection to an unauthenticated Redis (the URL's host and port only). Each batch is
 * written whole, so replies come back as FIFO batches and a MULTI..EXEC is never interleaved.
 */
function respConnection(redisUrl: string) {
  const { hostname, port } = new URL(redisUrl);
  let socket: Socket | undefined;
  let buffered = Buffer.alloc(0);
  type Waiting = { count: number; replies: Reply[]; resolve(r: Reply[]): void; reject(e: Error): void };
  const waiting: Waiting[] = [];

  function onData(chunk: Buffer) {
    buffered = Buffer.concat([buffered, chunk]);
    for (let parsed = parseReply(buffered, 0); parsed; parsed = parseReply(buffered, 0)) {
      buffered = buffered.subarray(parsed[1]);
      const head = waiting[0];
      if (!head) continue;
      head.replies.push(parsed[0]);
      if (head.replies.length === head.count) waiting.shift()?.resolve(head.replies);
    }
  }
  function open(): Socket {
    const s = connect({ host: hostname, port: Number(port || 6379) });
    // A dead connection fails what it owed and is replaced on the next request.
    const fail = (error: Error) => {
      if (socket !== s) return;
      socket = undefined;
      buffered = Buffer.alloc(0);
      for (const w of waiting.splice(0)) w.reject(error);
    };
    s.on('data', onData).on('error', fail).on('close', () => fail(new Error('Redis connection closed')));
    return s;
  }
  return {
    send(commands: unknown[][]): Promise<Reply[]> {
      if (commands.length === 0) return Promise.resolve([]);
      socket ??= open();
      socket.write(Buffer.concat(commands.map(encodeCommand)));
      return new Promise((resolve, reject) => waiting.push({ count: commands.length, replies: [], resolve, reject }));
    },
    close: () => socket?.destroy(),
  };
}

export type UpstashBridge = { url: string; close(): Promise<void> };

export async function startUpstashBridge(options: { redisUrl: string; token: string }): Promise<UpstashBridge> {
  const redis = respConnection(options.redisUrl);

  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${options.token}`) return send(401, { error: 'Unauthorized' });
    if (req.method !== 'POST') return send(405, { error: 'Method not allowed' });
    // Upstash encodes every string in the reply as base64 except a plain "OK" when asked to.
    const base64 = req.headers['upstash-encoding'] === 'base64';
    const toJson = (r: Reply): unknown =>
      Buffer.isBuffer(r) ? r.toString(base64 ? 'base64' : 'utf8')
      : typeof r === 'string' ? (base64 && r !== 'OK' ? Buffer.from(r).toString('base64') : r)
      : Array.isArray(r) ? r.map(toJson)
      : r instanceof ReplyError ? r.message
      : r;
    const entry = (r: Reply) => (r instanceof ReplyError ? { error: r.message } : { result: toJson(r) });
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[];
      if (req.url === '/') {
        const [reply] = await redis.send([body]);
        if (reply instanceof ReplyError) return send(400, { error: reply.message });
        return send(200, { result: toJson(reply ?? null) });
      }
      if (req.url === '/pipeline') return send(200, (await redis.send(body as unknown[][])).map(entry));
      if (req.url === '/multi-exec') {
        const replies = await redis.send([['MULTI'], ...(body as unknown[][]), ['EXEC']]);
        const exec = replies.at(-1) ?? null;
        // EXECABORT (a command refused while queueing) fails the whole transaction, as Upstash does.
        if (!Array.isArray(exec)) {
          return send(400, { error: exec instanceof ReplyError ? exec.message : 'Transaction aborted' });
        }
        return send(200, exec.map(entry));
      }
      return send(404, { error: `Unknown path ${req.url}` });
    } catch (error) {
      // A body that is not JSON is the caller's fault; anything else is Redis being unreachable.
      const message = error instanceof Error ? error.message : String(error);
      return send(error instanceof SyntaxError ? 400 : 500, { error: message });
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      redis.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
