// The machine's ceiling: a bare node:http server, in its own process, that answers every request
// with one fixed response (the exact status, headers and body bytes the service sent for the
// scenario). Measured with the same client and settings right after the service, it is what this
// machine can do for that response at all; the service's figure divided by it is the ratio.
//
// Run by bench/ceiling.ts with an IPC channel: {type: 'serve', response} replaces the response,
// answered with {type: 'serving'}. Not meant to be started by hand.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type CeilingResponse = {
  status: number;
  /** Header pairs as the service sent them, minus the ones node:http writes itself. */
  headers: [string, string][];
  bodyBase64: string;
  /**
   * For revalidation scenarios: the response is sent only when If-None-Match equals this, as the
   * service does; any other request gets a 412 (counted as a wrong status, so a mistake shows).
   */
  ifNoneMatch?: string;
};

type Prepared = { status: number; headers: [string, string][]; body: Buffer; ifNoneMatch: string | undefined };

let current: Prepared = { status: 503, headers: [], body: Buffer.alloc(0), ifNoneMatch: undefined };

function respond(req: IncomingMessage, res: ServerResponse) {
  const answer = current;
  if (answer.ifNoneMatch !== undefined && req.headers['if-none-match'] !== answer.ifNoneMatch) {
    res.writeHead(412, { 'Content-Length': '0' });
    res.end();
    return;
  }
  // writeHead with a flat [name, value] array keeps names as given and skips header validation
  // objects: the cheapest way node:http has to send prepared headers.
  res.writeHead(answer.status, answer.headers.flat());
  res.end(answer.body);
}

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  if (req.method === 'GET' || req.method === 'HEAD') return respond(req, res);
  // Writes: read the request body first, as the service must.
  req.on('data', () => {});
  req.on('end', () => respond(req, res));
});

process.on('message', (message: { type: string; response?: CeilingResponse }) => {
  if (message.type !== 'serve' || !message.response) return;
  const { status, headers, bodyBase64, ifNoneMatch } = message.response;
  const body = Buffer.from(bodyBase64, 'base64');
  const bodiless = status === 304 || status === 204;
  current = {
    status,
    headers: bodiless
      ? headers
      : [...headers.filter(([name]) => name.toLowerCase() !== 'content-length'), ['Content-Length', String(body.length)]],
    body: bodiless ? Buffer.alloc(0) : body,
    ifNoneMatch,
  };
  process.send?.({ type: 'serving' });
});

const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ type: 'listening', url: `http://127.0.0.1:${port}` });
});
