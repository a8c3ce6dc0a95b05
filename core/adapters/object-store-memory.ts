// ObjectStore in a Map: for tests and for the embedded local mode when nothing should touch disk.
import { createHash } from 'node:crypto';
import type { GetResult, ObjectStore, StoredObject } from '../ports/object-store.ts';

export function createMemoryObjectStore(): ObjectStore {
  const objects = new Map<string, StoredObject>();

  return {
    async put(key, body, options = {}) {
      // MD5 like a single-part S3 PUT, so one object has the same etag in every adapter.
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      // Copy in and out: callers may reuse or mutate their buffers after the call.
      objects.set(key, {
        body: Uint8Array.from(body),
        etag,
        contentType: options.contentType,
        contentEncoding: options.contentEncoding,
      });
      return { etag };
    },

    async get(key, options = {}): Promise<GetResult> {
      const object = objects.get(key);
      if (!object) return { kind: 'missing' };
      if (options.ifNoneMatch === object.etag) return { kind: 'not-modified', etag: object.etag };
      return { kind: 'found', object: { ...object, body: Uint8Array.from(object.body) } };
    },

    async list(prefix) {
      return [...objects.keys()].filter((key) => key.startsWith(prefix)).sort();
    },

    async delete(keys) {
      for (const key of keys) objects.delete(key);
    },
  };
}
