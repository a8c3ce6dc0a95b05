// The edge of the self-hosted HTTP server (npm start): bounded waits for slow clients, and the spec's
// error envelope even on the answers Node's own parser gives before the app sees a request (an
// over-long URL or header block, a malformed request line, a timeout).
import type { Server, ServerResponse } from 'node:http';
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

export function hardenNodeServer(server: Server, options: { requestTimeoutMs: number; headersTimeoutMs: number }): void {
  // A body that never ends, or headers sent a byte a minute, give up their connection at these.
  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = Math.min(options.headersTimeoutMs, options.requestTimeoutMs);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing to tell a client that is gone.
    if (error.code === 'ECONNRESET' || !socket.writable) {
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
