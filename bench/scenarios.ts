// What is measured: each scenario names one request (or a stream of requests, for writes), the
// status every response must have, its connection count and the issue's targets where one applies.
import type { BenchProject } from './seed.ts';
import { groupName, isApprovedEverywhere, keyName, SEED_WORDS, STANDARD_SHAPE, valueFor } from './seed.ts';
import { forEachLimit } from './http.ts';
import type { HttpClient } from './http.ts';
import type { LoadRequest } from './measure.ts';
import { encodeCursor } from '../core/keys/key-cursor.ts';
import { screenshotPng } from './png.ts';

export type Target =
  | { kind: 'ratio'; min: number }
  | { kind: 'p99'; maxMs: number }
  | { kind: 'rps'; min: number }
  /** More requests per second than another scenario (a 304 against its 200). */
  | { kind: 'faster-than'; scenario: string };

export type Scenario = {
  name: string;
  family: 'live' | 'cached' | 'write';
  connections: number;
  expectedStatus: number;
  targets: Target[];
  prepare(context: ScenarioContext): Promise<PreparedScenario>;
};

export type PreparedScenario = {
  /** The request sent once up front: its response is what the ceiling server replays. */
  probe: LoadRequest;
  load: LoadRequest | (() => LoadRequest);
  /** The ceiling answers only requests carrying this If-None-Match (revalidations). */
  ceilingIfNoneMatch?: string;
};

export type ScenarioContext = { http: HttpClient; project: BenchProject };

const LANGUAGE = 'de';
const LANGUAGE_INDEX = STANDARD_SHAPE.languages.indexOf(LANGUAGE);
/** A group in the middle of the project, and its first key approved in every language. */
const GROUP_INDEX = 7;
const KEYS_PER_GROUP = STANDARD_SHAPE.keys / STANDARD_SHAPE.groups;
const SAMPLE_KEY_INDEX = (() => {
  for (let i = GROUP_INDEX * KEYS_PER_GROUP; i < (GROUP_INDEX + 1) * KEYS_PER_GROUP; i++) if (isApprovedEverywhere(STANDARD_SHAPE, i)) return i;
  throw new Error('no approved key in the sample group');
})();
const GROUP = groupName(STANDARD_SHAPE, SAMPLE_KEY_INDEX);
const KEY = keyName(STANDARD_SHAPE, SAMPLE_KEY_INDEX);

const get = (context: ScenarioContext, path: string, headers: Record<string, string> = {}): LoadRequest => ({
  method: 'GET',
  path,
  headers: { 'X-API-Key': context.project.apiKey, ...headers },
});

/** Tags 1,000 keys "release" (five groups of 200) and every key "all-keys"; idempotent (bulk-tags adds what is missing). */
async function tagKeys(context: ScenarioContext): Promise<void> {
  const headers = { 'X-API-Key': context.project.apiKey };
  const groups = Array.from({ length: STANDARD_SHAPE.groups }, (_, g) => groupName(STANDARD_SHAPE, g * KEYS_PER_GROUP));
  for (const [g, group] of groups.entries()) {
    const add = g % 10 === 3 ? ['all-keys', 'release'] : ['all-keys'];
    await context.http.json('POST', '/v1/keys/bulk-tags', 200, { headers, json: { filter: { group }, add } });
  }
}

/** The seeded key of this name, as the listing gives it (its id, and what its cursor is made of). */
async function findKey(context: ScenarioContext, name: string): Promise<{ key: string; id: string }> {
  const found = await context.http.json<{ keys: { key: string; id: string }[] }>('GET', `/v1/keys?search=${enc(name)}&limit=1`, 200, {
    headers: { 'X-API-Key': context.project.apiKey },
  });
  const item = found.keys[0];
  if (!item) throw new Error(`GET /v1/keys?search=${name}: no such key`);
  return item;
}

/** The project's 40 screenshots (uploaded once per project), the sample key's id and one screenshot showing it. */
async function screenshots(context: ScenarioContext): Promise<{ keyId: string; screenshotId: string }> {
  const headers = { 'X-API-Key': context.project.apiKey };
  const key = await findKey(context, KEY);
  const shown = await context.http.json<{ screenshots: { id: string }[] }>('GET', `/v1/screenshots?key_id=${key.id}`, 200, { headers });
  if (shown.screenshots.length === 0) {
    const png = screenshotPng();
    const other = await findKey(context, keyName(STANDARD_SHAPE, SAMPLE_KEY_INDEX + 1));
    await forEachLimit(Array.from({ length: 40 }, (_, i) => i), 4, async (i) => {
      const linked = i % 2 === 0 ? `&key_id=${key.id}&key_id=${other.id}` : `&key_id=${other.id}`;
      await context.http.json('POST', `/v1/screenshots?name=Screen%20${i}${linked}`, 201, { headers, raw: png });
    });
  }
  const [first] = (await context.http.json<{ screenshots: { id: string }[] }>('GET', `/v1/screenshots?key_id=${key.id}&limit=1`, 200, { headers })).screenshots;
  return { keyId: key.id, screenshotId: first!.id };
}

/** The project's tasks (created once per project): one over every key in German, then one per group. */
async function tasks(context: ScenarioContext): Promise<{ whole: number }> {
  const headers = { 'X-API-Key': context.project.apiKey };
  const listed = await context.http.json<{ data: { number: number }[] }>('GET', '/v1/tasks?limit=200', 200, { headers });
  if (listed.data.length === 0) {
    await context.http.json('POST', '/v1/tasks', 201, { headers, json: { name: 'All of German', kind: 'translate', language: LANGUAGE, filter: {}, include_done: true } });
    const groups = Array.from({ length: STANDARD_SHAPE.groups }, (_, g) => groupName(STANDARD_SHAPE, g * KEYS_PER_GROUP));
    for (const group of groups) {
      await context.http.json('POST', '/v1/tasks', 201, { headers, json: { name: `Review ${group}`, kind: 'review', language: LANGUAGE, filter: { group }, include_done: true } });
    }
  }
  return { whole: 1 };
}

/** A fixed GET: the probe and the load are the same request. */
const fixedGet =
  (path: string, headers: Record<string, string> = {}) =>
  async (context: ScenarioContext): Promise<PreparedScenario> => {
    const request = get(context, path, headers);
    return { probe: request, load: request };
  };

/** A 304: the ETag comes from a first plain GET of the same path. */
const revalidation = (path: string) => async (context: ScenarioContext): Promise<PreparedScenario> => {
  const first = await context.http.send('GET', path, { headers: { 'X-API-Key': context.project.apiKey } });
  const etag = first.headers.etag;
  if (first.status !== 200 || typeof etag !== 'string') throw new Error(`GET ${path} for its ETag: ${first.status}, etag ${String(etag)}`);
  const request = get(context, path, { 'If-None-Match': etag });
  return { probe: request, load: request, ceilingIfNoneMatch: etag };
};

/** The language's versioned URL in the current build, from the cached manifest. */
async function buildUrl(context: ScenarioContext, language: string): Promise<string> {
  const manifest = await context.http.json<{ languages: { code: string; url?: string }[] }>('GET', '/v1/cached/manifest', 200, {
    headers: { 'X-API-Key': context.project.apiKey },
  });
  const url = manifest.languages.find((l) => l.code === language)?.url;
  if (!url) throw new Error(`the cached manifest names no build URL for ${language}`);
  return url;
}

const LIVE = '/v1/translations';
const CACHED = '/v1/cached/translations';
const enc = encodeURIComponent;

let created = 0;

export const SCENARIOS: Scenario[] = [
  // Live: a database read per request (the project's content version; the body from the memo
  // while it has not moved). Targets from issue 13.
  {
    name: 'live-language',
    family: 'live',
    connections: 16,
    expectedStatus: 200,
    targets: [
      { kind: 'rps', min: 1_000 },
      { kind: 'p99', maxMs: 50 },
    ],
    prepare: fixedGet(`${LIVE}/${LANGUAGE}`),
  },
  {
    name: 'live-language-304',
    family: 'live',
    connections: 16,
    expectedStatus: 304,
    targets: [{ kind: 'faster-than', scenario: 'live-language' }],
    prepare: revalidation(`${LIVE}/${LANGUAGE}`),
  },
  {
    name: 'live-group',
    family: 'live',
    connections: 32,
    expectedStatus: 200,
    targets: [{ kind: 'rps', min: 3_000 }],
    prepare: fixedGet(`${LIVE}/${LANGUAGE}/${enc(GROUP)}`),
  },
  {
    name: 'live-key',
    family: 'live',
    connections: 32,
    expectedStatus: 200,
    targets: [{ kind: 'ratio', min: 0.45 }],
    prepare: fixedGet(`${LIVE}/${LANGUAGE}/${enc(GROUP)}/${enc(KEY)}`),
  },
  // A backend reading many keys of one project, not one hot key: each request the next key of the
  // sample group approved in every language (140, all memoized after the warm-up). Live reads
  // of a project share one version question whatever body they want, so this should cost about
  // what live-key does. No target in issue 13; it shows whether sharing holds.
  {
    name: 'live-key-rotating',
    family: 'live',
    connections: 32,
    expectedStatus: 200,
    targets: [],
    async prepare(context) {
      const paths: string[] = [];
      for (let i = GROUP_INDEX * KEYS_PER_GROUP; i < (GROUP_INDEX + 1) * KEYS_PER_GROUP; i++) {
        if (isApprovedEverywhere(STANDARD_SHAPE, i)) paths.push(`${LIVE}/${LANGUAGE}/${enc(GROUP)}/${enc(keyName(STANDARD_SHAPE, i))}`);
      }
      let n = 0;
      const next = () => get(context, paths[n++ % paths.length]!);
      return { probe: next(), load: next };
    },
  },
  { name: 'live-manifest', family: 'live', connections: 32, expectedStatus: 200, targets: [{ kind: 'rps', min: 2_000 }], prepare: fixedGet('/v1/manifest') },
  // The listing behind the portal's editor (issue 15: search under 100 ms, a page under 200 ms on a
  // 10,000-key project). The search names one key's value text ("#<index>"), so every key name and
  // every value of the project is looked at; the page starts at the middle key, from a cursor the
  // listing made.
  {
    name: 'keys-search',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 100 }],
    prepare: fixedGet(`/v1/keys?search=${enc(`#${SAMPLE_KEY_INDEX}`)}&limit=50`),
  },
  {
    name: 'keys-page',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 200 }],
    prepare: async (context) => {
      const item = await findKey(context, keyName(STANDARD_SHAPE, STANDARD_SHAPE.keys / 2));
      const request = get(context, `/v1/keys?limit=50&cursor=${encodeCursor(item)}`);
      return { probe: request, load: request };
    },
  },

  // Tags (docs/decisions.md, "Tags on keys"): 1,000 of the 10,000 keys tagged (five groups, through
  // POST /v1/keys/bulk-tags), every key with a second tag; the editor's first page filtered by the
  // tag, and the project's tag list with counts (one pass over the live keys: no index on tags).
  {
    name: 'keys-by-tag',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 200 }],
    prepare: async (context) => {
      await tagKeys(context);
      return fixedGet(`/v1/keys?tag=release&limit=50`)(context);
    },
  },
  {
    name: 'tags-list',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 100 }],
    prepare: async (context) => {
      await tagKeys(context);
      return fixedGet('/v1/keys/tags')(context);
    },
  },

  // A value's comment thread, as the portal's value page and `tms mcp` list_comments read it: 20
  // comments with their authors' names, by one key's id.
  {
    name: 'comments-thread',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 100 }],
    prepare: async (context) => {
      const headers = { 'X-API-Key': context.project.apiKey };
      const path = `/v1/keys/${(await findKey(context, KEY)).id}/translations/${LANGUAGE}/comments`;
      for (let i = 0; i < 20; i++) await context.http.json('POST', path, 201, { headers, json: { text: `Comment ${i}: is this the formal form?` } });
      const request = get(context, path);
      return { probe: request, load: request };
    },
  },

  // Open comments (docs/decisions.md, "Resolving comments"): 300 comments on 150 keys spread over
  // the project, one of each key's two resolved; the editor's "Open comments" filter, first page.
  {
    name: 'keys-open-comments',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 200 }],
    prepare: async (context) => {
      const headers = { 'X-API-Key': context.project.apiKey };
      const { keys } = await context.http.json<{ keys: { id: string }[] }>('GET', '/v1/keys?limit=450', 200, { headers });
      for (const [i, key] of keys.entries()) {
        if (i % 3 !== 0) continue;
        const thread = `/v1/keys/${key.id}/translations/${LANGUAGE}/comments`;
        const first = await context.http.json<{ id: string }>('POST', thread, 201, { headers, json: { text: 'Formal or informal here?' } });
        await context.http.json('POST', thread, 201, { headers, json: { text: 'Shorter, please: it is a button' } });
        await context.http.json('PATCH', `${thread}/${first.id}`, 200, { headers, json: { resolved: true } });
      }
      return fixedGet(`/v1/keys?open_comments=${LANGUAGE}&limit=50`)(context);
    },
  },

  // The glossary (docs/decisions.md, "Glossary"): 2,000 terms, 40 of them the seed's own words
  // (each with German and French), the rest found in no text; the terms one key's source text
  // holds, as the editor shows them under it and `tms mcp`'s get_glossary gives them.
  {
    name: 'glossary-key-terms',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 100 }],
    prepare: async (context) => {
      const headers = { 'X-API-Key': context.project.apiKey };
      const terms = [
        ...SEED_WORDS.map((word) => ({ term: word, translations: { de: `${word}-de`, fr: `${word}-fr` } })),
        ...Array.from({ length: 2_000 - SEED_WORDS.length }, (_, i) => ({ term: `Feature ${i}`, description: 'A product term', translations: { de: `Funktion ${i}` } })),
      ];
      // Once per project: the "(analyzed)" pass prepares the same scenario again.
      const { count } = await context.http.json<{ count: number }>('GET', '/v1/glossary?limit=1', 200, { headers });
      if (count === 0) await forEachLimit(terms, 8, async (json) => void (await context.http.json('POST', '/v1/glossary', 201, { headers, json })));
      const key = await findKey(context, KEY);
      return fixedGet(`/v1/glossary?key_id=${key.id}`)(context);
    },
  },

  // Screenshots (docs/decisions.md, "Screenshots"): 40 phone-sized PNGs (1170 x 2532, 395 KB), every
  // other one showing the sample key; a translator's page asks for those of one key, then each image
  // (from the object store: the data directory or S3), then revalidates it.
  {
    name: 'screenshots-by-key',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 100 }],
    prepare: async (context) => fixedGet(`/v1/screenshots?key_id=${(await screenshots(context)).keyId}`)(context),
  },
  {
    name: 'screenshot-image',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 100 }],
    prepare: async (context) => fixedGet(`/v1/screenshots/${(await screenshots(context)).screenshotId}/image`)(context),
  },
  {
    name: 'screenshot-image-304',
    family: 'live',
    connections: 4,
    expectedStatus: 304,
    targets: [{ kind: 'p99', maxMs: 50 }],
    prepare: async (context) => revalidation(`/v1/screenshots/${(await screenshots(context)).screenshotId}/image`)(context),
  },

  // Tasks (docs/decisions.md, "Tasks"): one task over all 10,000 keys in German and one per group
  // (50 of 200 keys, as review tasks); progress is counted from the values at each read (core/tasks/task-rows.ts).
  {
    name: 'task-progress',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 200 }],
    prepare: async (context) => fixedGet(`/v1/tasks/${(await tasks(context)).whole}`)(context),
  },
  {
    name: 'tasks-list',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 200 }],
    prepare: async (context) => {
      await tasks(context);
      return fixedGet('/v1/tasks?state=open&limit=20')(context);
    },
  },
  {
    name: 'task-keys-todo',
    family: 'live',
    connections: 4,
    expectedStatus: 200,
    targets: [{ kind: 'p99', maxMs: 200 }],
    prepare: async (context) => fixedGet(`/v1/tasks/${(await tasks(context)).whole}/keys?done=false&limit=100`)(context),
  },

  // Cached: prebuilt bytes from memory.
  ...(
    [
      ['cached-language', `${CACHED}/${LANGUAGE}`, undefined],
      ['cached-language-gzip', `${CACHED}/${LANGUAGE}`, 'gzip'],
      ['cached-language-br', `${CACHED}/${LANGUAGE}`, 'br'],
    ] as const
  ).map(
    ([name, path, encoding]): Scenario => ({
      name,
      family: 'cached',
      connections: 32,
      expectedStatus: 200,
      targets: [
        { kind: 'ratio', min: 0.6 },
        { kind: 'p99', maxMs: 10 },
      ],
      prepare: fixedGet(path, encoding ? { 'Accept-Encoding': encoding } : {}),
    }),
  ),
  {
    name: 'cached-group',
    family: 'cached',
    connections: 32,
    expectedStatus: 200,
    targets: [{ kind: 'ratio', min: 0.6 }],
    prepare: fixedGet(`${CACHED}/${LANGUAGE}/${enc(GROUP)}`),
  },
  {
    name: 'cached-group-br',
    family: 'cached',
    connections: 32,
    expectedStatus: 200,
    targets: [],
    prepare: fixedGet(`${CACHED}/${LANGUAGE}/${enc(GROUP)}`, { 'Accept-Encoding': 'br' }),
  },
  {
    name: 'cached-key',
    family: 'cached',
    connections: 32,
    expectedStatus: 200,
    targets: [
      { kind: 'ratio', min: 0.6 },
      { kind: 'p99', maxMs: 10 },
    ],
    prepare: fixedGet(`${CACHED}/${LANGUAGE}/${enc(GROUP)}/${enc(KEY)}`),
  },
  // An app asking for a key the build does not have (a typo, a key not published yet): the error
  // path, which must cost no more than the answer it replaces.
  {
    name: 'cached-key-404',
    family: 'cached',
    connections: 32,
    expectedStatus: 404,
    targets: [{ kind: 'p99', maxMs: 10 }],
    prepare: fixedGet(`${CACHED}/${LANGUAGE}/${enc(GROUP)}/${enc(`${KEY}-missing`)}`),
  },
  {
    name: 'cached-304',
    family: 'cached',
    connections: 32,
    expectedStatus: 304,
    targets: [
      { kind: 'faster-than', scenario: 'cached-language' },
      { kind: 'ratio', min: 0.6 },
      { kind: 'p99', maxMs: 10 },
    ],
    prepare: revalidation(`${CACHED}/${LANGUAGE}`),
  },
  {
    name: 'cached-key-304',
    family: 'cached',
    connections: 32,
    expectedStatus: 304,
    targets: [
      { kind: 'faster-than', scenario: 'cached-key' },
      { kind: 'ratio', min: 0.6 },
      { kind: 'p99', maxMs: 10 },
    ],
    prepare: revalidation(`${CACHED}/${LANGUAGE}/${enc(GROUP)}/${enc(KEY)}`),
  },

  // The versioned build URLs (issue 16): the current build's file for the language, as the cached
  // manifest names it. The same stored bytes as cached-language, reached through the named build's
  // index instead of the pointer; immutable, so an edge or a client keeps them for a year.
  {
    name: 'cached-build-language',
    family: 'cached',
    connections: 32,
    expectedStatus: 200,
    targets: [
      { kind: 'ratio', min: 0.6 },
      { kind: 'p99', maxMs: 10 },
    ],
    prepare: async (context) => fixedGet(await buildUrl(context, LANGUAGE))(context),
  },
  {
    name: 'cached-build-304',
    family: 'cached',
    connections: 32,
    expectedStatus: 304,
    targets: [
      { kind: 'faster-than', scenario: 'cached-build-language' },
      { kind: 'p99', maxMs: 10 },
    ],
    prepare: async (context) => revalidation(await buildUrl(context, LANGUAGE))(context),
  },

  // Writes. They run last: they change the project the reads above measured.
  {
    name: 'write-put',
    family: 'write',
    connections: 32,
    expectedStatus: 200,
    targets: [{ kind: 'rps', min: 3_000 }],
    async prepare({ project }) {
      // Rotates over keys approved in every language, and keeps them approved.
      const targets = project.keyIds.flatMap((id, i) => (isApprovedEverywhere(project.shape, i) ? [{ id, i }] : []));
      let n = 0;
      const next = (): LoadRequest => {
        const { id, i } = targets[n++ % targets.length]!;
        return {
          method: 'PUT',
          path: `/v1/keys/${id}/translations/${LANGUAGE}`,
          headers: { 'X-API-Key': project.apiKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ value: `${valueFor(i, LANGUAGE_INDEX, LANGUAGE)} (edit ${n})`, status: 'approved' }),
        };
      };
      return { probe: next(), load: next };
    },
  },
  {
    name: 'write-create-key',
    family: 'write',
    connections: 32,
    expectedStatus: 201,
    targets: [{ kind: 'rps', min: 2_000 }],
    async prepare({ project }) {
      // Unique names in a group of their own: the project grows past 10,000 keys (team plan: no limit).
      const tag = Date.now().toString(36);
      const next = (): LoadRequest => ({
        method: 'POST',
        path: '/v1/keys',
        headers: { 'X-API-Key': project.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ key: `bench-created.k${tag}-${++created}`, group_name: 'bench-created', description: 'created by npm run bench' }),
      });
      return { probe: next(), load: next };
    },
  },
];

export const SAMPLE = { language: LANGUAGE, group: GROUP, key: KEY };
