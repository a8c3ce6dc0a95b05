// The shapes the SDK speaks. Written out here rather than imported from core/: the package has no
// dependencies and must bundle for a browser without pulling in the server's validation code.

/** Full key name ("home.title") to its approved value. */
export type Translations = Record<string, string>;

export type ManifestLanguage = {
  code: string;
  name: string;
  iso: string | null;
  approved_count: number;
  /** The language file of this build, immutable (servers with versioned build URLs). */
  url?: string;
  etag?: string;
};

export type Manifest = {
  project_id: string;
  languages: ManifestLanguage[];
  /** Present on servers with versioned build URLs. */
  build_id?: string;
  built_at?: string;
};

/**
 * Where the last good files are kept between runs. localStorage matches it, and so does React
 * Native's AsyncStorage (its methods return promises); `fileStorage(dir)` from `@tms/sdk/node`
 * keeps them in a directory.
 */
export type StorageLike = {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): unknown;
};

export type ClientOptions = {
  /** The API's origin, e.g. https://tms.example.com (a path prefix is kept). */
  url: string;
  /** A project key, sent as X-API-Key: a delivery key in anything shipped to users. */
  key: string;
  /** The project id: sent as X-Project-Id, so a key of another project is refused (403). */
  project?: string;
  /** Where last good files survive a restart. Default: localStorage in a browser, else memory only. */
  storage?: StorageLike | false;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /** Milliseconds a copy is served without asking the server again. Default 0: always revalidate. */
  maxAge?: number;
  /** Checks the manifest for a new build every this many milliseconds (at most 2^31 - 1). Default 0: only when asked. */
  pollInterval?: number;
  /** Base of the retry waits, in milliseconds (section 7's 1 to 2 s for a 500). Default 1000. */
  retryDelay?: number;
  /** The longest Retry-After the client waits for when it has nothing stored. Default 30000 ms. */
  maxRetryWait?: number;
  /** Milliseconds before a request without an answer (headers and body) counts as offline. Default 10000; 0 or Infinity: no timeout. */
  timeout?: number;
};

export type BuildEvent = {
  /** The new build's id (its manifest's ETag on servers without build ids). */
  build: string;
  previous: string;
  manifest: Manifest;
};

export type Client = {
  /** A language's approved values, or one group's; the last good copy when the server cannot answer. */
  getTranslations(language: string, group?: string): Promise<Translations>;
  /** The current build's manifest. A new build seen here fires the build listeners. */
  getManifest(): Promise<Manifest>;
  /** Calls `listener` whenever a manifest names a newer build than the last one seen; returns an unsubscribe. */
  onBuild(listener: (event: BuildEvent) => void): () => void;
  /** Stops polling. */
  close(): void;
};
