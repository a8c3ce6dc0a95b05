// The edge of the self-hosted HTTP server (npm start): bounded waits for slow clients, and the spec's
// error envelope even on the answers Node's own parser gives before the app sees a request (an
// over-long URL or header block, a malformed request line, a timeout), and an answer sent before the
// request's body was read (a 413) that the client can always read.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' };

function statusFor(code: string | undefined): { status: number; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, detail: 'Request header fields too large (URL and headers together must stay under 16 KB)' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, detail: 'Request timed out: the request was not received in time' };
    default:
      return { status: 400, detail: 'Malformed HTTP request' };
  }
}

/** Node checks those deadlines only this often (its default, 30 s, would let a 10 s one run to 40 s). */
export const EDGE_SERVER_OPTIONS = { connectionsCheckingInterval: 1000 };

/** How much of an unread body the server reads and discards after answering, and for how long at most. */
export const DRAIN_LIMITS = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000 };

export type EdgeOptions = { requestTimeoutMs: number; headersTimeoutMs: number; drain?: { maxBytes: number; maxMs: number } };

// Connections whose answer is out while the rest of their request's body is being discarded.
const draining = new WeakSet<Duplex>();

/**
 * The answer went out before the body was read (a 413 over the limit, a 401 before a large PUT was
 * looked at): read the rest and throw it away, up to a bound, before the connection may close.
 * Closing a socket with unread bytes makes the kernel reset it, and a client that writes its whole
 * body before reading (Python's requests, many SDKs) then fails with EPIPE or ECONNRESET and never
 * sees the answer. @hono/node-server's own drain gives up after 500 ms and destroys the socket, which
 * a slow sender or a large body outlasts: its destroySoon is held back on this socket for the drain.
 * Within the bound the body ends and the connection stays usable (keep-alive); past it, it is cut.
 */
function drainThenRelease(req: IncomingMessage, socket: Socket, limits: { maxBytes: number; maxMs: number }): void {
  if (socket.destroyed || draining.has(socket)) return;
  draining.add(socket);
  let bytes = 0;
  // Ending our side (FIN) is harmless: the client reads the answer and the rest still drains.
  const heldBack = () => socket.end();
  if (!Object.hasOwn(socket, 'destroySoon')) socket.destroySoon = heldBack;
  const release = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', release);
    req.off('error', cut);
    draining.delete(socket);
    if (socket.destroySoon === heldBack) delete (socket as Partial<Socket>).destroySoon;
  };
  const cut = () => {
    release();
    socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limits.maxBytes) cut();
  };
  const timer = setTimeout(cut, limits.maxMs);
  timer.unref();
  // The app's reader is done with this body but still listens (Readable.toWeb's adapter), and would
  // pause the stream again at every chunk once its own queue is full: nothing reads for it any more.
  req.removeAllListeners('data');
  req.on('data', onData);
  req.once('end', release);
  req.once('error', cut);
  req.resume();
}

export function hardenNodeServer(server: Server, options: EdgeOptions): void {
  const drain = options.drain ?? DRAIN_LIMITS;
  // A body that never ends, or headers sent a byte a minute, give up their connection at these.
  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = Math.min(options.headersTimeoutMs, options.requestTimeoutMs);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // GET and HEAD carry no body to leave unread: the hot path adds no listener.
    if (req.method === 'GET' || req.method === 'HEAD') return;
    // Marks the body as being consumed without taking any of it (Node then buffers up to its
    // high-water mark and pauses the socket, as for any body not read yet). Without it, a body the
    // app never touched (a 413 judged from Content-Length) is dumped by Node when the answer
    // finishes: its bytes are then swallowed unseen, and the drain below could not bound them.
    req.read(0);
    res.once('finish', () => {
      if (!req.complete) drainThenRelease(req, req.socket, drain);
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing to tell a client that is gone, nor one whose answer is already out (it is being drained).
    if (error.code === 'ECONNRESET' || !socket.writable || draining.has(socket)) {
      socket.destroy();
      return;
    }
    const { status, detail } = statusFor(error.code);
    const body = JSON.stringify({ detail });
    // The request was already handed to the app (its body is what never came): answer through its
    // response if nothing was sent yet, then close; the app's later writes go nowhere.
    const pending = (socket as { _httpMessage?: ServerResponse })._httpMessage;
    if (pending) {
      if (!pending.headersSent) pending.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' }).end(body);
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
