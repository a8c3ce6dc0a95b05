// Where built cache objects live: S3 on AWS, a directory when self-hosted, memory in tests.
// Keys are '/'-separated strings such as `projects/<id>/builds/<build>/en.json`. Portable keys
// have no empty, '.' or '..' segments and no backslash (the filesystem adapter rejects those), and
// no key is also a "directory" of another key ('a' next to 'a/b' fails on a filesystem).

export type PutOptions = {
  contentType?: string;
  /** 'gzip' | 'br' for stored pre-compressed variants. */
  contentEncoding?: string;
  /**
   * The key is new and written once (a build's files, under a fresh build id): no reader looks for
   * it before a later write (the pointer) names it. An adapter may then skip what makes an
   * overwrite atomic for readers (the filesystem store writes in place instead of renaming).
   */
  fresh?: boolean;
};

export type StoredObject = {
  body: Uint8Array;
  /** Strong validator of the stored bytes, quoted as HTTP sends it: "\"abc123\"". */
  etag: string;
  contentType: string | undefined;
  contentEncoding: string | undefined;
};

export type GetResult =
  | { kind: 'found'; object: StoredObject }
  | { kind: 'not-modified'; etag: string }
  | { kind: 'missing' };

export interface ObjectStore {
  put(key: string, body: Uint8Array, options?: PutOptions): Promise<{ etag: string }>;
  /** With ifNoneMatch equal to the current etag, answers not-modified without the body. */
  get(key: string, options?: { ifNoneMatch?: string }): Promise<GetResult>;
  /** Every key under the prefix, in lexicographic order (pagination is the adapter's business). */
  list(prefix: string): Promise<string[]>;
  /** Deleting a key that does not exist is not an error. */
  delete(keys: string[]): Promise<void>;
}
