// ObjectStore on S3 (AWS, or anything speaking its API: s3rver in tests, MinIO when self-hosting).
import type { Config } from '../config.ts';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { GetResult, ObjectStore } from '../ports/object-store.ts';
import { AWS_REQUEST_HANDLER } from './aws-deadlines.ts';

export type S3ClientOptions = {
  region?: string;
  /** For S3-compatible servers; leave unset on AWS. */
  endpoint?: string;
  /** Most S3-compatible servers (s3rver, MinIO) need path-style URLs. */
  forcePathStyle?: boolean;
  /** Unset on AWS, where the default provider chain finds the Lambda role. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

export function createS3Client(options: S3ClientOptions = {}): S3Client {
  return new S3Client({
    region: options.region ?? 'us-east-1',
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // By default the SDK sends aws-chunked bodies with trailing checksums; S3-compatible servers
    // such as s3rver store that framing verbatim as the object (silent corruption). Plain bodies
    // work everywhere, and S3 still checks Content-Length and computes its own MD5 ETag.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A silent store hung every cached read of a project (they share one pointer check).
    requestHandler: AWS_REQUEST_HANDLER,
  });
}

/** A read in all, retries and body included: a request waiting on it answers within this. */
export const S3_READ_DEADLINE_MS = 5_000;

/** DeleteObjects accepts at most this many keys per request. */
const deleteBatchSize = 1000;

export function createS3ObjectStore(options: { bucket: string; client: S3Client }): ObjectStore {
  const { bucket: Bucket, client } = options;

  return {
    async put(key, body, putOptions = {}) {
      const result = await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentType: putOptions.contentType,
          ContentEncoding: putOptions.contentEncoding,
        }),
      );
      // Single-part PUT: S3's ETag is the quoted MD5, and GET reports the same string.
      if (!result.ETag) throw new Error(`S3 PutObject returned no ETag for ${key}`);
      return { etag: result.ETag };
    },

    async get(key, getOptions = {}): Promise<GetResult> {
      try {
        // Reads serve requests: one deadline for all the SDK's attempts and the body.
        const result = await client.send(new GetObjectCommand({ Bucket, Key: key, IfNoneMatch: getOptions.ifNoneMatch }), {
          abortSignal: AbortSignal.timeout(S3_READ_DEADLINE_MS),
        });
        if (!result.ETag) throw new Error(`S3 GetObject returned no ETag for ${key}`);
        return {
          kind: 'found',
          object: {
            body: result.Body ? await result.Body.transformToByteArray() : new Uint8Array(),
            etag: result.ETag,
            contentType: result.ContentType,
            contentEncoding: result.ContentEncoding,
          },
        };
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        const name = (err as Error).name;
        // The SDK surfaces a 304 as an error; S3 only answers 304 when the etag matched.
        if (status === 304 && getOptions.ifNoneMatch) return { kind: 'not-modified', etag: getOptions.ifNoneMatch };
        // A missing bucket is a configuration error, not a missing object.
        if (name === 'NoSuchKey' || (status === 404 && name !== 'NoSuchBucket')) return { kind: 'missing' };
        throw err;
      }
    },

    async list(prefix) {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys; // S3 already lists in lexicographic (UTF-8 byte) order
    },

    async delete(keys) {
      for (let start = 0; start < keys.length; start += deleteBatchSize) {
        const batch = keys.slice(start, start + deleteBatchSize);
        const result = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
        // DeleteObjects answers 200 even when single keys fail; absent keys are not failures.
        if (result.Errors?.length) {
          const detail = result.Errors.map((e) => `${e.Key}: ${e.Code} ${e.Message}`).join('; ');
          throw new Error(`S3 DeleteObjects failed for ${result.Errors.length} key(s): ${detail}`);
        }
      }
    },
  };
}

/** The S3 store as configuration names it (S3_BUCKET and friends): one wiring for every entry point. */
export function s3ObjectStoreFromConfig(
  config: Pick<Config, 'S3_ENDPOINT' | 'S3_REGION' | 'AWS_REGION' | 'S3_FORCE_PATH_STYLE'> & { S3_BUCKET: string },
): ObjectStore {
  const region = config.S3_REGION ?? config.AWS_REGION;
  const client = createS3Client({
    ...(region ? { region } : {}),
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
  return createS3ObjectStore({ bucket: config.S3_BUCKET, client });
}
