// An in-memory CloudFront speaking the REST/XML protocol of @aws-sdk/client-cloudfront v3 for
// CreateInvalidation and GetInvalidation (no npm package serves it). It checks what CloudFront checks
// of an invalidation batch (Quantity matching the paths, paths starting with '/', '*' only at the
// end, at most 3,000 paths, a CallerReference, at most 15 wildcard invalidations in progress), that
// the request is SigV4-signed for the `cloudfront` service in us-east-1, and it answers a repeated
// CallerReference as CloudFront does: the same invalidation for the same paths, an error otherwise.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Invalidation = { id: string; distributionId: string; paths: string[]; callerReference: string; createdAt: Date; status: 'InProgress' | 'Completed' };

class CloudFrontError extends Error {
  status: number;
  code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const NS = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';
const MAX_PATHS = 3000;
const MAX_WILDCARDS_IN_PROGRESS = 15;

const unescape = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|amp|#x?[0-9a-f]+);/gi, (_, e: string) =>
    e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === 'apos' ? "'" : e === 'amp' ? '&' : String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))),
  );
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const one = (xml: string, tag: string) => {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
  return m ? unescape(m[1]!) : undefined;
};

function batchXml(inv: Invalidation): string {
  const items = inv.paths.map((p) => `<Path>${escape(p)}</Path>`).join('');
  return `<InvalidationBatch><Paths><Quantity>${inv.paths.length}</Quantity><Items>${items}</Items></Paths><CallerReference>${escape(inv.callerReference)}</CallerReference></InvalidationBatch>`;
}

function invalidationXml(inv: Invalidation): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Invalidation xmlns="${NS}"><Id>${inv.id}</Id><Status>${inv.status}</Status><CreateTime>${inv.createdAt.toISOString()}</CreateTime>${batchXml(inv)}</Invalidation>`;
}

export type CloudFrontEmulator = {
  endpoint: string;
  /** Every invalidation created, oldest first. */
  invalidations(distributionId?: string): Invalidation[];
  /** The next CreateInvalidation calls fail with this error (one per entry), as a CloudFront outage would. */
  failNext(...errors: { status: number; code: string }[]): void;
  close(): Promise<void>;
};

export async function startCloudFrontEmulator(options: { distributions: string[]; completeAfterMs?: number }): Promise<CloudFrontEmulator> {
  const distributions = new Set(options.distributions);
  const created: Invalidation[] = [];
  const failures: { status: number; code: string }[] = [];
  const completeAfterMs = options.completeAfterMs ?? 0;

  const refresh = () => {
    for (const inv of created) if (inv.status === 'InProgress' && Date.now() - inv.createdAt.getTime() >= completeAfterMs) inv.status = 'Completed';
  };

  function create(distributionId: string, body: string): { status: number; xml: string; location: string } {
    const failure = failures.shift();
    if (failure) throw new CloudFrontError(failure.status, failure.code, 'emulated failure');
    if (!distributions.has(distributionId)) throw new CloudFrontError(404, 'NoSuchDistribution', 'The specified distribution does not exist.');
    if (!body.trim()) throw new CloudFrontError(400, 'MissingBody', 'This operation requires a body.');
    const batch = one(body, 'InvalidationBatch');
    if (batch === undefined || !body.includes(`xmlns="${NS}"`)) throw new CloudFrontError(400, 'MalformedInput', 'Could not parse the InvalidationBatch.');
    const callerReference = one(batch, 'CallerReference');
    if (!callerReference) throw new CloudFrontError(400, 'InvalidArgument', 'CallerReference is required.');
    const quantity = Number(one(batch, 'Quantity'));
    const paths = [...batch.matchAll(/<Path>([\s\S]*?)<\/Path>/g)].map((m) => unescape(m[1]!));
    if (!Number.isInteger(quantity) || quantity !== paths.length) {
      throw new CloudFrontError(400, 'InconsistentQuantities', 'The value of Quantity and the size of Items don\'t match.');
    }
    if (paths.length === 0) throw new CloudFrontError(400, 'InvalidArgument', 'At least one path is required.');
    if (paths.length > MAX_PATHS) throw new CloudFrontError(413, 'BatchTooLarge', `At most ${MAX_PATHS} paths.`);
    for (const path of paths) {
      if (!path.startsWith('/')) throw new CloudFrontError(400, 'InvalidArgument', `Your request contains one or more invalid invalidation paths: ${path}`);
      if (path.slice(0, -1).includes('*')) throw new CloudFrontError(400, 'InvalidArgument', `'*' must be the last character: ${path}`);
    }
    refresh();
    const same = created.find((i) => i.distributionId === distributionId && i.callerReference === callerReference);
    if (same) {
      if (JSON.stringify(same.paths) !== JSON.stringify(paths)) {
        throw new CloudFrontError(400, 'InvalidationBatchAlreadyExists', 'A different invalidation batch with this caller reference exists.');
      }
      return { status: 201, xml: invalidationXml(same), location: locationOf(same) };
    }
    const wildcards = created.filter((i) => i.distributionId === distributionId && i.status === 'InProgress' && i.paths.some((p) => p.endsWith('*')));
    if (paths.some((p) => p.endsWith('*')) && wildcards.length >= MAX_WILDCARDS_IN_PROGRESS) {
      throw new CloudFrontError(400, 'TooManyInvalidationsInProgress', 'Too many invalidation batches with wildcards in progress.');
    }
    const inv: Invalidation = {
      id: `I${randomBytes(7).toString('hex').toUpperCase()}`,
      distributionId,
      paths,
      callerReference,
      createdAt: new Date(),
      status: 'InProgress',
    };
    created.push(inv);
    return { status: 201, xml: invalidationXml(inv), location: locationOf(inv) };
  }

  let endpoint = '';
  const locationOf = (inv: Invalidation) => `${endpoint}/2020-05-31/distribution/${inv.distributionId}/invalidation/${inv.id}`;

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://emulator');
    try {
      const auth = String(req.headers.authorization ?? '');
      if (!/^AWS4-HMAC-SHA256 Credential=[^/]+\/\d{8}\/us-east-1\/cloudfront\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/.test(auth)) {
        throw new CloudFrontError(403, 'MissingAuthenticationToken', 'Request must be SigV4-signed for cloudfront in us-east-1.');
      }
      const createPath = /^\/2020-05-31\/distribution\/([^/]+)\/invalidation$/.exec(url.pathname);
      const getPath = /^\/2020-05-31\/distribution\/([^/]+)\/invalidation\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'POST' && createPath) {
        const out = create(decodeURIComponent(createPath[1]!), body);
        res.writeHead(out.status, { 'content-type': 'text/xml', location: out.location, 'x-amz-request-id': randomUUID() });
        res.end(out.xml);
        return;
      }
      if (req.method === 'GET' && getPath) {
        refresh();
        const inv = created.find((i) => i.distributionId === decodeURIComponent(getPath[1]!) && i.id === getPath[2]);
        if (!inv) throw new CloudFrontError(404, 'NoSuchInvalidation', 'The specified invalidation does not exist.');
        res.writeHead(200, { 'content-type': 'text/xml', 'x-amz-request-id': randomUUID() });
        res.end(invalidationXml(inv));
        return;
      }
      throw new CloudFrontError(404, 'NotFound', `No such operation: ${req.method} ${url.pathname}`);
    } catch (error) {
      const e = error instanceof CloudFrontError ? error : new CloudFrontError(500, 'InternalError', String(error));
      const requestId = randomUUID();
      res.writeHead(e.status, { 'content-type': 'text/xml', 'x-amz-request-id': requestId });
      res.end(
        `<?xml version="1.0"?>\n<ErrorResponse xmlns="${NS}"><Error><Type>${e.status >= 500 ? 'Receiver' : 'Sender'}</Type><Code>${e.code}</Code><Message>${escape(e.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    invalidations: (distributionId) => created.filter((i) => distributionId === undefined || i.distributionId === distributionId),
    failNext: (...errors) => void failures.push(...errors),
    async close() {
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      });
    },
  };
}
