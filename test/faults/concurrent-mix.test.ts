// A randomized, seeded mix of everything at once: concurrent clients on two projects (one without a
// key limit, one with), through the HTTP API, each doing a bounded number of random operations:
// PUTs (plain, If-Match, If-None-Match), value deletions, key creation, moves and deletion, group
// renames and deletions, JSON and CSV imports (overwrite, keep, fail, dry runs), bulk status changes
// and deletions, language additions and removals, rebuilds (and auto rebuilds on one project), and
// reads: live (language, group, key, manifest), cached, exports, key and group listings. Checked as
// it runs and at the end:
// - never a 5xx, and no status the operation cannot answer (every status is tallied and printed);
// - read-after-write: each writer owns keys only it writes; its read right after a 2xx (through the
//   key, its group or its whole language) shows exactly that write, and any client's live read
//   shows an own value at least as new as the last write of it answered before the read began;
// - a live read never shows a key deleted, a group deleted or renamed away, or a value of a language
//   removed, before the read began (names and values are never reused, so this cannot false-alarm);
// - no read mixes two versions: a pair of keys always imported together, and per writer a probe
//   group (two keys imported, renamed and deleted together), are seen both or neither, with one
//   value and one group, live, cached, exported and listed;
// - one project never sees the other's names, values or ids, and the other's key ids are 404s;
// - at the end a final rebuild's cached files equal the live reads byte for byte, the cache status
//   settles, and no lease, lock, open transaction, batch or read flight is left, nor an error logged.
//
// The seed (MIX_SEED) fixes every client's choices; the interleaving is the machine's, and every
// check holds whatever it is. Sizes: MIX_WRITERS, MIX_READERS, MIX_OPS, MIX_POOL, MIX_FILLER.
// Locks and isolation are real on real Postgres (DATABASE_URL), which runs the large mix; embedded
// PGlite serializes transactions and runs a smaller one through the same checks.
import { describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../core/log.ts';
import { usingRealPostgres } from '../support/test-database.ts';
import { useTestApp, type TestProject } from '../support/test-app.ts';
import { wholeNumberFromEnv } from '../support/whole-number-from-env.ts';

const REAL = usingRealPostgres();
const SEED = wholeNumberFromEnv('MIX_SEED', 20261201);
const env = (name: string, real: number, embedded: number) => Number(process.env[name] ?? (REAL ? real : embedded));
/** Per project. Sized so that the rare interleavings come up (about 40-60 s on 2 cores, real Postgres). */
const WRITERS = env('MIX_WRITERS', 10, 5);
const READERS = env('MIX_READERS', 3, 2);
/** Operations per client (a writer's own read-backs come on top). */
const OPS = env('MIX_OPS', 300, 200);
/** The service's database connections (real Postgres; the embedded database has one). */
const POOL = String(env('MIX_POOL', 16, 1));
/** Approved values of other keys in `de`, per project. */
const FILLER = env('MIX_FILLER', 1500, 1500);

const STABLE = ['en', 'de', 'fr'] as const;
const VOLATILE = ['it', 'es', 'nl', 'pt-BR'] as const;
const LANGUAGES: readonly string[] = [...STABLE, ...VOLATILE];
const STATUSES = ['draft', 'review', 'approved'] as const;
type Status = (typeof STATUSES)[number];
/** Names of the shared keys (imports, creations and deletions by everyone), per project. */
const SHARED = 12;

const log = createMemoryLogger();
const t = useTestApp({ log, env: { LOG_REQUESTS: 'false', AUTO_REBUILD_DEBOUNCE_MS: '150', DATABASE_POOL_MAX: POOL } });

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): each client has its own stream.

type Rng = { next(): number; int(n: number): number; pick<T>(items: readonly T[]): T; chance(p: number): boolean };

function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)]!, chance: (p) => next() < p };
}

/** One of `weights`' names, with probability proportional to its weight. */
function weighted<K extends string>(r: Rng, weights: Record<K, number>): K {
  const entries = Object.entries(weights) as [K, number][];
  let x = r.next() * entries.reduce((s, [, w]) => s + w, 0);
  for (const [name, w] of entries) if ((x -= w) < 0) return name;
  return entries.at(-1)![0];
}

// ---------------------------------------------------------------------------------------------
// What the run observed: statuses by operation, and every broken promise.

const tally = new Map<string, Map<number, number>>();
const violations: string[] = [];
const violate = (message: string) => {
  if (violations.length < 200) violations.push(message);
};

type World = {
  tag: string;
  p: TestProject;
  other: World;
  /** Key names (never reused) whose deletion was answered, and when. */
  tombstones: Map<string, number>;
  /** Group names (never reused) deleted or renamed away, and when that was answered. */
  deadGroups: Map<string, number>;
  /** Values (all unique) that a language removal deleted, and when the removal was answered. */
  purged: Map<string, number>;
  /** Per own key and language (`name|language`): the writes and deletions answered, in order, and when. */
  answered: Map<string, { seq: number; at: number }[]>;
  /** Values answered in a volatile language, and when: a removal that starts later deletes them. */
  volatileWrites: Map<string, { value: string; at: number }[]>;
  /** Shared pool names and the id last seen for each. */
  poolIds: Map<string, string>;
  /** Ids of the writers' own keys, for the other project's attempts. */
  ownIds: string[];
  /** Group names seen, for readers to try. */
  groupsSeen: Set<string>;
};

type Outcome = { status: number; text: string; started: number; ended: number; headers: Headers };

async function request(
  w: World,
  op: string,
  allowed: readonly number[],
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<Outcome> {
  const started = performance.now();
  const res = await t.call(w.p.apiKey, method, path, body, headers);
  const text = await res.text();
  const ended = performance.now();
  const byStatus = tally.get(op) ?? new Map<number, number>();
  tally.set(op, byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1));
  if (res.status >= 500 || !allowed.includes(res.status)) {
    violate(`${w.tag} ${op}: ${method} ${path} answered ${res.status} (allowed ${allowed.join('/')}): ${text.slice(0, 400)}`);
  }
  return { status: res.status, text, started, ended, headers: res.headers };
}

const json = (o: Outcome): any => {
  try {
    return JSON.parse(o.text);
  } catch {
    return undefined;
  }
};

// ---------------------------------------------------------------------------------------------
// Checks of one read's body.

const PROBE = /^([a-z]+-c\d+-p\d+)\.([xy])$/;

/** Entries of a body: name -> { value, group? }; plain strings for the approved shapes. */
type Entries = Map<string, { value: string; group?: string | undefined }>;

function entriesOf(translations: Record<string, unknown> | undefined): Entries {
  const out: Entries = new Map();
  for (const [name, entry] of Object.entries(translations ?? {})) {
    if (typeof entry === 'string') out.set(name, { value: entry });
    else {
      const e = entry as { value: string; group?: string };
      out.set(name, { value: e.value, group: e.group });
    }
  }
  return out;
}

/** The other project's names, values and id never show; this project's id does where one is named. */
function checkIsolation(w: World, what: string, o: Outcome) {
  if (o.text.includes(w.other.tag) || o.text.includes(w.other.p.projectId)) {
    violate(`${w.tag} ${what}: shows the other project's data: ${o.text.slice(0, 300)}`);
  }
  const body = json(o);
  if (o.status === 200 && body && typeof body === 'object' && 'project_id' in body && body.project_id !== w.p.projectId) {
    violate(`${w.tag} ${what}: project_id ${body.project_id}`);
  }
}

/**
 * The atomicity probes: the pair (imported together, in `de`) and each client's probe group (two keys
 * imported, renamed and deleted together) are seen both or neither, with one value and one group.
 * `pairAlways`: a body of all of `de` (or the pair's group) must hold the pair.
 */
function checkTogether(w: World, what: string, entries: Entries, pairAlways: boolean) {
  const a = entries.get(`${w.tag}-pair.a`);
  const b = entries.get(`${w.tag}-pair.b`);
  if ((a === undefined) !== (b === undefined) || (pairAlways && a === undefined)) {
    violate(`${w.tag} ${what}: the pair is half there or missing: a=${JSON.stringify(a)} b=${JSON.stringify(b)}`);
  } else if (a && b && (a.value !== b.value || a.group !== b.group)) {
    violate(`${w.tag} ${what}: the pair mixes two imports: a=${JSON.stringify(a)} b=${JSON.stringify(b)}`);
  }
  const probes = new Map<string, { x?: unknown; y?: unknown }>();
  for (const [name, entry] of entries) {
    const m = PROBE.exec(name);
    if (!m) continue;
    const seen = probes.get(m[1]!) ?? {};
    seen[m[2] as 'x' | 'y'] = entry;
    probes.set(m[1]!, seen);
  }
  for (const [base, { x, y }] of probes) {
    if (x === undefined || y === undefined || JSON.stringify(x) !== JSON.stringify(y)) {
      violate(`${w.tag} ${what}: probe ${base} torn: x=${JSON.stringify(x)} y=${JSON.stringify(y)}`);
    }
  }
}

/** Nothing deleted before the read began shows in a live body. */
function checkGone(w: World, what: string, o: Outcome, entries: Entries) {
  for (const [name, entry] of entries) {
    const deleted = w.tombstones.get(name);
    if (deleted !== undefined && deleted < o.started) violate(`${w.tag} ${what}: shows key ${name}, deleted before the read began`);
    const purged = w.purged.get(entry.value);
    if (purged !== undefined && purged < o.started) violate(`${w.tag} ${what}: shows value ${entry.value} of a removed language`);
    const dead = entry.group === undefined ? undefined : w.deadGroups.get(entry.group);
    if (dead !== undefined && dead < o.started) violate(`${w.tag} ${what}: shows key ${name} in group ${entry.group}, gone before the read began`);
  }
}

const OWN_KEY = /^[a-z]+-c\d+-k\d+$/;
const OWN_VALUE = /^[a-z]+:c\d+:(\d+)$/;

/**
 * Read-after-write for everyone: a body read by any client shows each own key's value at least as
 * new as the last write of it answered before the read began (each writer numbers its writes).
 */
function checkFloor(w: World, what: string, o: Outcome, language: string, entries: Entries) {
  for (const [name, entry] of entries) {
    if (!OWN_KEY.test(name)) continue;
    const seq = Number(OWN_VALUE.exec(entry.value)?.[1] ?? NaN);
    const history = w.answered.get(`${name}|${language}`) ?? [];
    let floor: { seq: number; at: number } | undefined;
    for (const h of history) if (h.at < o.started) floor = h;
    if (!(seq >= (floor?.seq ?? 0))) {
      violate(`${w.tag} ${what}: ${name} shows ${entry.value}, older than write #${floor?.seq} answered before the read began`);
    }
  }
}

function noteGroups(w: World, entries: Entries) {
  for (const { group } of entries.values()) if (group !== undefined && w.groupsSeen.size < 400) w.groupsSeen.add(group);
}

// ---------------------------------------------------------------------------------------------
// Reads, by readers and writers alike.

const enc = encodeURIComponent;

async function liveLanguage(w: World, r: Rng) {
  const language = r.chance(0.7) ? r.pick(STABLE) : r.pick(LANGUAGES);
  const all = r.chance(0.7);
  // `de` always holds the pair; the other languages may have no value at all.
  const o = await request(w, 'live-language', language === 'de' ? [200] : [200, 404], 'GET', `/v1/translations/${language}${all ? '?status=all' : ''}`);
  checkIsolation(w, 'live-language', o);
  if (o.status !== 200) return;
  const entries = entriesOf(json(o)?.translations);
  checkGone(w, `live ${language}`, o, entries);
  checkFloor(w, `live ${language}`, o, language, entries);
  if (language === 'de') checkTogether(w, `live ${language}${all ? ' (all)' : ''}`, entries, true);
  if (all) noteGroups(w, entries);
}

async function liveGroup(w: World, r: Rng) {
  const language = r.chance(0.5) ? 'de' : r.pick(LANGUAGES);
  const group = r.chance(0.3) ? `${w.tag}-pair` : r.chance(0.3) ? `${w.tag}-imp` : r.pick([...w.groupsSeen, `${w.tag}-pair`]);
  const all = r.chance(0.5);
  const always = language === 'de' && group === `${w.tag}-pair`;
  const o = await request(w, 'live-group', always ? [200] : [200, 404], 'GET', `/v1/translations/${language}/${enc(group)}${all ? '?status=all' : ''}`);
  checkIsolation(w, 'live-group', o);
  const dead = w.deadGroups.get(group);
  if (o.status === 200 && dead !== undefined && dead < o.started) violate(`${w.tag} live group ${group}: served after the group was gone`);
  if (o.status !== 200) return;
  const entries = entriesOf(json(o)?.translations);
  checkGone(w, `live ${language}/${group}`, o, entries);
  checkFloor(w, `live ${language}/${group}`, o, language, entries);
  if (language === 'de') checkTogether(w, `live ${language}/${group}`, entries, always);
}

async function liveKey(w: World, r: Rng) {
  const name = r.chance(0.5) ? r.pick([`${w.tag}-pair.a`, `${w.tag}-pair.b`]) : `${w.tag}-imp.n${r.int(SHARED)}`;
  const group = name.slice(0, name.indexOf('.'));
  const o = await request(w, 'live-key', [200, 404], 'GET', `/v1/translations/${r.pick(LANGUAGES)}/${enc(group)}/${enc(name)}?status=all`);
  checkIsolation(w, 'live-key', o);
}

async function manifest(w: World) {
  const o = await request(w, 'live-manifest', [200], 'GET', '/v1/manifest');
  checkIsolation(w, 'live-manifest', o);
  for (const l of json(o)?.languages ?? []) if (!LANGUAGES.includes(l.code)) violate(`${w.tag} manifest: unknown language ${l.code}`);
}

async function cached(w: World, r: Rng) {
  const kind = r.int(3);
  if (kind === 0) {
    const o = await request(w, 'cached-manifest', [200], 'GET', '/v1/cached/manifest');
    checkIsolation(w, 'cached-manifest', o);
    return;
  }
  const language = r.chance(0.6) ? 'de' : r.pick(LANGUAGES);
  const path = kind === 1 ? `/v1/cached/translations/${language}` : `/v1/cached/translations/${language}/${enc(`${w.tag}-pair`)}`;
  const o = await request(w, 'cached-read', [200, 404], 'GET', path);
  checkIsolation(w, 'cached-read', o);
  // A build is a snapshot: it holds the pair (seeded before the first build) whole.
  if (language === 'de') {
    if (o.status !== 200) violate(`${w.tag} cached ${path}: ${o.status}`);
    else checkTogether(w, `cached ${path}`, entriesOf(json(o)?.translations), true);
  }
}

async function exportFile(w: World, r: Rng) {
  const language = r.chance(0.5) ? 'de' : r.pick(LANGUAGES);
  const all = r.chance(0.5);
  const o = await request(w, 'export', (STABLE as readonly string[]).includes(language) ? [200] : [200, 404], 'GET', `/v1/export/${language}?format=json${all ? '&status=all' : ''}`);
  checkIsolation(w, 'export', o);
  if (o.status !== 200) return;
  const entries = entriesOf(json(o));
  checkGone(w, `export ${language}`, o, entries);
  checkFloor(w, `export ${language}`, o, language, entries);
  if (language === 'de') checkTogether(w, `export ${language}`, entries, true);
}

async function listing(w: World, r: Rng) {
  const group = r.chance(0.4) ? `${w.tag}-imp` : undefined;
  const o = await request(w, 'list-keys', [200], 'GET', `/v1/keys${group ? `?group=${enc(group)}` : ''}`);
  checkIsolation(w, 'list-keys', o);
  const keys: { id: string; key: string; group_name: string }[] = json(o)?.keys ?? [];
  const entries: Entries = new Map(keys.map((k) => [k.key, { value: '', group: k.group_name }]));
  checkGone(w, 'list-keys', o, entries);
  if (!group) checkTogether(w, 'list-keys', entries, true);
  for (const k of keys) if (k.key.startsWith(`${w.tag}-imp.`)) w.poolIds.set(k.key, k.id);
}

async function groupList(w: World) {
  const o = await request(w, 'list-groups', [200], 'GET', '/v1/groups');
  checkIsolation(w, 'list-groups', o);
  for (const group of json(o)?.groups ?? []) {
    const dead = w.deadGroups.get(group);
    if (dead !== undefined && dead < o.started) violate(`${w.tag} list-groups: lists ${group}, gone before the read began`);
  }
}

async function read(w: World, r: Rng) {
  const kind = weighted(r, { language: 16, group: 3, key: 2, manifest: 2, cached: 3, export: 2, listing: 2, groups: 1, languages: 1, status: 1 });
  switch (kind) {
    case 'language':
      return liveLanguage(w, r);
    case 'group':
      return liveGroup(w, r);
    case 'key':
      return liveKey(w, r);
    case 'manifest':
      return manifest(w);
    case 'cached':
      return cached(w, r);
    case 'export':
      return exportFile(w, r);
    case 'listing':
      return listing(w, r);
    case 'groups':
      return groupList(w);
    case 'languages':
      return void checkIsolation(w, 'list-languages', await request(w, 'list-languages', [200], 'GET', '/v1/languages'));
    case 'status':
      return void checkIsolation(w, 'cache-status', await request(w, 'cache-status', [200], 'GET', '/v1/cache/status'));
  }
}

// ---------------------------------------------------------------------------------------------
// Writers: their own keys (read back at once, exactly), a probe group, and shared chaos.

type OwnValue = { value: string; status: Status; version: number };
type OwnKey = { name: string; id: string; group: string; values: Map<string, OwnValue> };

class Writer {
  private seq = 0;
  private groupSeq = 0;
  private probeSeq = 0;
  private readonly keys = new Map<string, OwnKey>();
  private probing: { base: string; group: string; value: string } | undefined;

  readonly w: World;
  readonly n: number;
  readonly r: Rng;

  constructor(w: World, n: number, r: Rng) {
    this.w = w;
    this.n = n;
    this.r = r;
  }

  private get me() {
    return `${this.w.tag}-c${this.n}`;
  }
  private value() {
    return `${this.w.tag}:c${this.n}:${++this.seq}`;
  }
  /** An own value's write (its number is in the value) or deletion (a number of its own), answered at `at`. */
  private answered(k: OwnKey, language: string, at: number, value?: string) {
    const seq = value === undefined ? ++this.seq : Number(OWN_VALUE.exec(value)![1]);
    const key = `${k.name}|${language}`;
    this.w.answered.set(key, [...(this.w.answered.get(key) ?? []), { seq, at }]);
  }
  private groups() {
    return [...new Set([...this.keys.values()].map((k) => k.group))];
  }
  private freshGroup() {
    const group = `${this.me}-g${++this.groupSeq}`;
    this.w.groupsSeen.add(group);
    return group;
  }

  async step() {
    const r = this.r;
    const hasKeys = this.keys.size > 0;
    const op = weighted(r, {
      create: hasKeys ? 3 : 20,
      put: hasKeys ? 12 : 0,
      putIfMatch: hasKeys ? 4 : 0,
      deleteValue: hasKeys ? 2 : 0,
      move: hasKeys ? 2 : 0,
      deleteKey: hasKeys ? 1.5 : 0,
      renameGroup: hasKeys ? 1 : 0,
      deleteGroup: hasKeys ? 0.5 : 0,
      ownCheck: hasKeys ? 2 : 0,
      probe: 3,
      pair: 2,
      import: 4,
      sharedCreate: 3,
      sharedPut: 6,
      sharedPutIfNoneMatch: 3,
      sharedDelete: 3,
      sharedMove: 1.5,
      sharedGroup: 1,
      bulkStatus: 1.5,
      bulkDelete: 0.5,
      language: 2,
      rebuild: 1,
      cross: 1,
      read: 6,
    });
    await this[op]();
  }

  // Own keys -----------------------------------------------------------------------------------

  private pickKey() {
    return this.r.pick([...this.keys.values()]);
  }

  /**
   * The live read shows exactly what this client wrote last (nobody else writes its keys): through
   * the key, or through the group's or the language's whole body, which the readers ask for too (a
   * read that shared a statement sent before the write was answered would show the old value).
   */
  private async readBack(k: OwnKey, language: string, what: string) {
    const want = k.values.get(language);
    const shape = this.r.int(3);
    const path =
      shape === 0
        ? `/v1/translations/${language}/${enc(k.group)}/${enc(k.name)}?status=all`
        : shape === 1
          ? `/v1/translations/${language}/${enc(k.group)}?status=all`
          : `/v1/translations/${language}?status=all`;
    const o = await request(this.w, 'read-back', [200, 404], 'GET', path);
    const body = json(o);
    const got = o.status !== 200 ? undefined : shape === 0 ? body : body?.translations?.[k.name];
    if (want ? got?.value !== want.value || got?.status !== want.status : got !== undefined) {
      violate(`${this.w.tag} read-after-write (${what}) of ${k.name}/${language} in ${k.group}: want ${JSON.stringify(want ?? 404)}, got ${o.status} ${JSON.stringify(got ?? null)}`);
    }
  }

  async create() {
    const groups = this.groups();
    const group = groups.length && this.r.chance(0.7) ? this.r.pick(groups) : this.freshGroup();
    const name = `${this.me}-k${++this.seq}`;
    const o = await request(this.w, 'create-own', [201], 'POST', '/v1/keys', { key: name, group_name: group });
    if (o.status !== 201) return;
    const id = json(o).id as string;
    this.keys.set(name, { name, id, group, values: new Map() });
    this.w.ownIds.push(id);
  }

  async put() {
    const k = this.pickKey();
    const language = this.r.pick(STABLE);
    const value = { value: this.value(), status: this.r.pick(STATUSES) };
    const o = await request(this.w, 'put-own', [200], 'PUT', `/v1/keys/${k.id}/translations/${language}`, value);
    if (o.status !== 200) return;
    k.values.set(language, { ...value, version: json(o).version });
    this.answered(k, language, o.ended, value.value);
    await this.readBack(k, language, 'put');
  }

  async putIfMatch() {
    const k = this.pickKey();
    const language = this.r.pick(STABLE);
    const current = k.values.get(language);
    const value = { value: this.value(), status: this.r.pick(STATUSES) };
    const path = `/v1/keys/${k.id}/translations/${language}`;
    if (!current) {
      // Create-only: nobody else writes this value, so it does not exist yet.
      const o = await request(this.w, 'put-if-none-match', [200], 'PUT', path, value, { 'If-None-Match': '*' });
      if (o.status === 200) {
        k.values.set(language, { ...value, version: json(o).version });
        this.answered(k, language, o.ended, value.value);
      }
    } else if (this.r.chance(0.2)) {
      // A version this value no longer has: refused, and nothing changes.
      await request(this.w, 'put-if-match-stale', [412], 'PUT', path, value, { 'If-Match': `"${current.version - 1}"` });
    } else {
      const etag = this.r.chance(0.5) ? (await request(this.w, 'get-value', [200], 'GET', path)).headers.get('etag') : `"${current.version}"`;
      // The read's tag is the version, marked while the value is outdated (its source rewritten since).
      if (etag !== `"${current.version}"` && etag !== `"${current.version}-outdated"`) violate(`${this.w.tag} get-value ${k.name}/${language}: etag ${etag}, want "${current.version}"`);
      // Sent back as it came: as an If-Match it names the version.
      const o = await request(this.w, 'put-if-match', [200], 'PUT', path, value, { 'If-Match': etag ?? `"${current.version}"` });
      if (o.status === 200) {
        k.values.set(language, { ...value, version: json(o).version });
        this.answered(k, language, o.ended, value.value);
      }
    }
    await this.readBack(k, language, 'conditional put');
  }

  async deleteValue() {
    const k = this.pickKey();
    const language = this.r.pick(STABLE);
    const had = k.values.has(language);
    const o = await request(this.w, 'delete-value', had ? [204] : [404], 'DELETE', `/v1/keys/${k.id}/translations/${language}`);
    k.values.delete(language);
    if (o.status === 204) this.answered(k, language, o.ended);
    await this.readBack(k, language, 'value delete');
  }

  async move() {
    const k = this.pickKey();
    const others = this.groups().filter((g) => g !== k.group);
    const group = others.length && this.r.chance(0.7) ? this.r.pick(others) : this.freshGroup();
    const old = k.group;
    const o = await request(this.w, 'move-key', [200], 'PATCH', `/v1/keys/${k.id}`, { group_name: group });
    if (o.status !== 200) return;
    k.group = group;
    // The group it left is gone when this was its last key: never used again.
    if (!this.groups().includes(old)) this.w.deadGroups.set(old, o.ended);
    const got = json(await request(this.w, 'read-back', [200], 'GET', `/v1/keys/${k.id}`));
    if (got?.group_name !== group) violate(`${this.w.tag} read-after-write (move) of ${k.name}: group ${got?.group_name}, want ${group}`);
    const language = [...k.values.keys()][0];
    if (language) await this.readBack(k, language, 'move');
  }

  async deleteKey() {
    const k = this.pickKey();
    const o = await request(this.w, 'delete-own-key', [204], 'DELETE', `/v1/keys/${k.id}`);
    if (o.status !== 204) return;
    this.keys.delete(k.name);
    this.w.tombstones.set(k.name, o.ended);
    if (!this.groups().includes(k.group)) this.w.deadGroups.set(k.group, o.ended);
    await request(this.w, 'read-back', [404], 'GET', `/v1/keys/${k.id}`);
    await request(this.w, 'read-back', [404], 'GET', `/v1/translations/de/${enc(k.group)}/${enc(k.name)}?status=all`);
  }

  async renameGroup() {
    const group = this.r.pick(this.groups());
    const moved = [...this.keys.values()].filter((k) => k.group === group);
    const next = this.freshGroup();
    const o = await request(this.w, 'rename-own-group', [200], 'PATCH', `/v1/groups/${enc(group)}`, { new_name: next });
    if (o.status !== 200) return;
    if (json(o).keys_updated !== moved.length) violate(`${this.w.tag} rename ${group}: keys_updated ${json(o).keys_updated}, want ${moved.length}`);
    for (const k of moved) k.group = next;
    this.w.deadGroups.set(group, o.ended);
    const listed = json(await request(this.w, 'read-back', [200], 'GET', `/v1/keys?group=${enc(next)}`));
    if (listed?.count !== moved.length) violate(`${this.w.tag} read-after-write (rename) ${next}: ${listed?.count} keys, want ${moved.length}`);
  }

  async deleteGroup() {
    const group = this.r.pick(this.groups());
    const gone = [...this.keys.values()].filter((k) => k.group === group);
    const o = await request(this.w, 'delete-own-group', [204], 'DELETE', `/v1/groups/${enc(group)}`);
    if (o.status !== 204) return;
    for (const k of gone) {
      this.keys.delete(k.name);
      this.w.tombstones.set(k.name, o.ended);
    }
    this.w.deadGroups.set(group, o.ended);
    const listed = json(await request(this.w, 'read-back', [200], 'GET', `/v1/keys?group=${enc(group)}`));
    if (listed?.count !== 0) violate(`${this.w.tag} read-after-write (group delete) ${group}: ${listed?.count} keys left`);
  }

  /** A whole language read shows every own key exactly as last written (and no other own value). */
  async ownCheck() {
    const language = this.r.pick(STABLE);
    const o = await request(this.w, 'own-check', [200, 404], 'GET', `/v1/translations/${language}?status=all`);
    const entries = entriesOf(json(o)?.translations);
    checkGone(this.w, `own-check ${language}`, o, entries);
    checkFloor(this.w, `own-check ${language}`, o, language, entries);
    for (const k of this.keys.values()) {
      const want = k.values.get(language);
      const got = entries.get(k.name);
      const gotStatus = (json(o)?.translations?.[k.name] as { status?: string } | undefined)?.status;
      if (want ? got?.value !== want.value || got?.group !== k.group || gotStatus !== want.status : got !== undefined) {
        violate(`${this.w.tag} read-after-write (language) of ${k.name}/${language}: want ${JSON.stringify(want ?? null)} in ${k.group}, got ${JSON.stringify(got ?? null)} ${gotStatus}`);
      }
    }
    if (o.status === 404 && [...this.keys.values()].some((k) => k.values.has(language))) violate(`${this.w.tag} own-check ${language}: 404 with own values written`);
  }

  // The probe group: two keys imported, rewritten, renamed and deleted together ---------------------

  async probe() {
    const p = this.probing;
    const r = this.r;
    if (!p) {
      const base = `${this.me}-p${++this.probeSeq}`;
      const value = this.value();
      const o = await this.importProbe(base, value);
      if (o.status === 200) this.probing = { base, group: base, value };
      this.w.groupsSeen.add(base);
    } else if (r.chance(0.4)) {
      const value = this.value();
      const o = await this.importProbe(p.base, value);
      if (o.status === 200) p.value = value;
    } else if (r.chance(0.6)) {
      const next = `${p.base}-r${++this.groupSeq}`;
      const o = await request(this.w, 'rename-probe', [200], 'PATCH', `/v1/groups/${enc(p.group)}`, { new_name: next });
      if (o.status === 200) {
        if (json(o).keys_updated !== 2) violate(`${this.w.tag} rename probe ${p.group}: keys_updated ${json(o).keys_updated}`);
        this.w.deadGroups.set(p.group, o.ended);
        p.group = next;
        this.w.groupsSeen.add(next);
      }
    } else {
      const o = await request(this.w, 'delete-probe', [204], 'DELETE', `/v1/groups/${enc(p.group)}`);
      if (o.status === 204) {
        this.w.deadGroups.set(p.group, o.ended);
        this.w.tombstones.set(`${p.base}.x`, o.ended);
        this.w.tombstones.set(`${p.base}.y`, o.ended);
        this.probing = undefined;
      }
      await request(this.w, 'read-back', [404], 'GET', `/v1/translations/de/${enc(p.group)}?status=all`);
      return;
    }
    const now = this.probing;
    if (!now) return;
    const o = await request(this.w, 'read-back', [200], 'GET', `/v1/translations/de/${enc(now.group)}?status=all`);
    const got = json(o)?.translations ?? {};
    for (const end of ['x', 'y']) {
      if (got[`${now.base}.${end}`]?.value !== now.value) violate(`${this.w.tag} read-after-write (probe) ${now.base}.${end} in ${now.group}: ${o.status} ${o.text.slice(0, 200)}`);
    }
  }

  private importProbe(base: string, value: string) {
    const file = JSON.stringify({ [`${base}.x`]: value, [`${base}.y`]: value });
    return request(this.w, 'import-probe', [200], 'POST', `/v1/import/de?status=approved`, file);
  }

  // Shared keys: everyone imports, creates, writes and deletes them ---------------------------------

  private poolName() {
    return `${this.w.tag}-imp.n${this.r.int(SHARED)}`;
  }

  /** A write answered in a volatile language: a removal that starts later deletes it. */
  private wrote(language: string, value: string, at: number) {
    if ((STABLE as readonly string[]).includes(language)) return;
    const list = this.w.volatileWrites.get(language) ?? [];
    this.w.volatileWrites.set(language, list);
    list.push({ value, at });
  }

  async pair() {
    const value = `${this.value()}:pair`;
    const file = JSON.stringify({ [`${this.w.tag}-pair.a`]: value, [`${this.w.tag}-pair.b`]: value });
    await request(this.w, 'import-pair', [200], 'POST', '/v1/import/de?status=approved', file);
  }

  /** The source language (en) more often than the others: its values feed translation memory. */
  private sharedLanguage() {
    return this.r.chance(0.4) ? 'en' : this.r.pick(LANGUAGES);
  }

  /**
   * A small file of shared names (some there, some not): JSON, or CSV with descriptions (which an
   * import writes onto existing keys too); mostly overwriting, sometimes keep, fail or a dry run.
   */
  async import() {
    const language = this.sharedLanguage();
    const names = new Set(Array.from({ length: 2 + this.r.int(4) }, () => this.poolName()));
    const file: Record<string, string> = {};
    for (const name of names) file[name] = this.value();
    const status = this.r.pick(STATUSES);
    const conflict = weighted(this.r, { overwrite: 8, keep: 1, fail: 1 });
    const dryRun = this.r.chance(0.1);
    const csv = this.r.chance(0.3);
    const body = csv
      ? ['key,group,description,value', ...Object.entries(file).map(([name, value]) => `${name},${this.w.tag}-imp,about ${value},${value}`)].join('\n')
      : JSON.stringify(file);
    const query = `status=${status}&conflict=${conflict}&format=${csv ? 'csv' : 'json'}${dryRun ? '&dry_run=true' : ''}`;
    const stable = (STABLE as readonly string[]).includes(language);
    const allowed = [200, ...(stable ? [] : [404]), ...(conflict === 'fail' ? [409] : [])];
    const o = await request(this.w, `import-${conflict}`, allowed, 'POST', `/v1/import/${language}?${query}`, body);
    if (o.status === 200 && !dryRun) for (const value of Object.values(file)) this.wrote(language, value, o.ended);
  }

  async sharedCreate() {
    const name = this.poolName();
    const o = await request(this.w, 'create-shared', [201, 409], 'POST', '/v1/keys', { key: name, group_name: `${this.w.tag}-imp` });
    if (o.status === 201) this.w.poolIds.set(name, json(o).id);
  }

  private pooledId() {
    const ids = [...this.w.poolIds.values()];
    return ids.length ? this.r.pick(ids) : undefined;
  }

  async sharedPut() {
    const id = this.pooledId();
    if (!id) return this.sharedCreate();
    const language = this.sharedLanguage();
    const value = this.value();
    const o = await request(this.w, 'put-shared', [200, 404], 'PUT', `/v1/keys/${id}/translations/${language}`, { value, status: this.r.pick(STATUSES) });
    if (o.status === 200) this.wrote(language, value, o.ended);
    else if ((STABLE as readonly string[]).includes(language) && json(o)?.detail !== 'Key not found') violate(`${this.w.tag} put-shared ${language}: ${o.text}`);
  }

  /** Create-only, as the portal's editor saves a value that was empty when its page loaded. */
  async sharedPutIfNoneMatch() {
    const id = this.pooledId();
    if (!id) return this.sharedCreate();
    const language = this.sharedLanguage();
    const value = this.value();
    const o = await request(this.w, 'put-shared-if-none-match', [200, 404, 412], 'PUT', `/v1/keys/${id}/translations/${language}`, { value, status: this.r.pick(STATUSES) }, { 'If-None-Match': '*' });
    if (o.status === 200) this.wrote(language, value, o.ended);
  }

  async sharedDelete() {
    const id = this.pooledId();
    if (!id) return;
    if (this.r.chance(0.5)) await request(this.w, 'delete-shared-key', [204, 404], 'DELETE', `/v1/keys/${id}`);
    else await request(this.w, 'delete-shared-value', [204, 404], 'DELETE', `/v1/keys/${id}/translations/${this.sharedLanguage()}`);
  }

  /** The shared keys live in three groups that everyone renames, deletes and moves keys between. */
  private sharedGroupName() {
    return this.r.pick([`${this.w.tag}-imp`, `${this.w.tag}-imp-a`, `${this.w.tag}-imp-b`]);
  }

  async sharedMove() {
    const id = this.pooledId();
    if (!id) return;
    await request(this.w, 'move-shared', [200, 404], 'PATCH', `/v1/keys/${id}`, { group_name: this.sharedGroupName() });
  }

  async sharedGroup() {
    const group = this.sharedGroupName();
    if (this.r.chance(0.25)) {
      await request(this.w, 'delete-shared-group', [204, 404], 'DELETE', `/v1/groups/${enc(group)}`);
      return;
    }
    const next = this.sharedGroupName();
    // Onto itself or a group in use: 409.
    await request(this.w, 'rename-shared-group', [200, 404, 409], 'PATCH', `/v1/groups/${enc(group)}`, { new_name: next });
  }

  private pooledIds(n: number) {
    const ids = [...this.w.poolIds.values()];
    return [...new Set(Array.from({ length: Math.min(n, ids.length) }, () => this.r.pick(ids)))];
  }

  /** A status for some shared keys' values, by ids (a stale one: 404, nothing changes) or by group. */
  async bulkStatus() {
    const ids = this.pooledIds(2 + this.r.int(5));
    const languages = [...new Set([this.sharedLanguage(), this.sharedLanguage()])];
    const selection = ids.length && this.r.chance(0.7) ? { key_ids: ids } : { filter: { group: this.sharedGroupName() } };
    await request(this.w, 'bulk-status', [200, 404], 'POST', '/v1/keys/bulk-status', { ...selection, languages, status: this.r.pick(STATUSES) });
  }

  async bulkDelete() {
    const ids = this.pooledIds(1 + this.r.int(3));
    if (!ids.length) return;
    await request(this.w, 'bulk-delete', [200, 404], 'POST', '/v1/keys/bulk-delete', { key_ids: ids });
  }

  // Languages, rebuilds, the other project ---------------------------------------------------------

  async language() {
    const code = this.r.pick(VOLATILE);
    if (this.r.chance(0.5)) {
      await request(this.w, 'add-language', [201, 409], 'POST', '/v1/languages', { code });
      return;
    }
    const o = await request(this.w, 'remove-language', [200, 404], 'DELETE', `/v1/languages/${code}`);
    if (o.status !== 200) return;
    // Every value of the language answered before the removal began was deleted by it.
    const list = this.w.volatileWrites.get(code) ?? [];
    const kept = list.filter((v) => v.at >= o.started);
    for (const v of list) if (v.at < o.started) this.w.purged.set(v.value, o.ended);
    this.w.volatileWrites.set(code, kept);
  }

  async rebuild() {
    await request(this.w, 'rebuild', [202], 'POST', '/v1/cache/rebuild');
  }

  /** The other project's keys are "not found" for every key operation, and stay untouched. */
  async cross() {
    const ids = this.w.other.ownIds;
    if (!ids.length) return;
    const id = this.r.pick(ids);
    switch (this.r.int(5)) {
      case 0:
        return void (await request(this.w, 'cross-put', [404], 'PUT', `/v1/keys/${id}/translations/de`, { value: this.value(), status: 'approved' }));
      case 1:
        return void (await request(this.w, 'cross-put-if-match', [404], 'PUT', `/v1/keys/${id}/translations/de`, { value: this.value() }, { 'If-Match': '*' }));
      case 2:
        return void (await request(this.w, 'cross-delete-value', [404], 'DELETE', `/v1/keys/${id}/translations/de`));
      case 3:
        return void (await request(this.w, 'cross-patch', [404], 'PATCH', `/v1/keys/${id}`, { group_name: `${this.me}-stolen` }));
      default:
        return void (await request(this.w, 'cross-get', [404], 'GET', `/v1/keys/${id}`));
    }
  }

  async read() {
    await read(this.w, this.r);
  }

  /** The end: every own key, in every stable language, as last written. */
  async finalCheck() {
    for (const language of STABLE) {
      const o = await request(this.w, 'final-check', [200, 404], 'GET', `/v1/translations/${language}?status=all`);
      const translations = json(o)?.translations ?? {};
      for (const k of this.keys.values()) {
        const want = k.values.get(language);
        const got = translations[k.name];
        if (want ? got?.value !== want.value || got?.status !== want.status || got?.group !== k.group : got !== undefined) {
          violate(`${this.w.tag} final state of ${k.name}/${language}: want ${JSON.stringify(want ?? null)} in ${k.group}, got ${JSON.stringify(got ?? null)}`);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The end: caches equal live reads, nothing left running or locked.

async function compareCacheWithLive(w: World) {
  const languages: string[] = json(await request(w, 'final', [200], 'GET', '/v1/languages')).languages.map((l: { code: string }) => l.code);
  for (const language of languages) {
    const live = await request(w, 'final', [200, 404], 'GET', `/v1/translations/${language}`);
    const cachedFile = await request(w, 'final', [200, 404], 'GET', `/v1/cached/translations/${language}`);
    if (live.status !== cachedFile.status || (live.status === 200 && live.text !== cachedFile.text)) {
      violate(`${w.tag} final cache of ${language}: live ${live.status} ${live.text.slice(0, 200)} / cached ${cachedFile.status} ${cachedFile.text.slice(0, 200)}`);
    }
    if (live.status !== 200) continue;
    const all = json(await request(w, 'final', [200], 'GET', `/v1/translations/${language}?status=all`)).translations as Record<string, { status: string; group: string }>;
    const groups = new Set(Object.values(all).filter((e) => e.status === 'approved').map((e) => e.group));
    for (const group of groups) {
      const liveGroup = await request(w, 'final', [200], 'GET', `/v1/translations/${language}/${enc(group)}`);
      const cachedGroup = await request(w, 'final', [200], 'GET', `/v1/cached/translations/${language}/${enc(group)}`);
      if (liveGroup.text !== cachedGroup.text) violate(`${w.tag} final cache of ${language}/${group}: live ${liveGroup.text.slice(0, 200)} / cached ${cachedGroup.text.slice(0, 200)}`);
    }
  }
  const liveManifest = json(await request(w, 'final', [200], 'GET', '/v1/manifest'));
  const cachedManifest = json(await request(w, 'final', [200], 'GET', '/v1/cached/manifest'));
  const spec = (m: any) => JSON.stringify(m.languages.map(({ code, name, iso, approved_count }: any) => ({ code, name, iso, approved_count })));
  if (spec(liveManifest) !== spec(cachedManifest)) violate(`${w.tag} final manifest: live ${spec(liveManifest)} / cached ${spec(cachedManifest)}`);
  const status = json(await request(w, 'final', [200], 'GET', '/v1/cache/status'));
  if (!(status.ready === true && status.pending === false && status.build_state === 'idle' && status.failed_at === null)) {
    violate(`${w.tag} final cache status did not settle: ${JSON.stringify(status)}`);
  }
}

describe('a random concurrent mix of every operation on two projects', () => {
  it(`keeps every promise (seed ${SEED}, ${WRITERS} writers and ${READERS} readers per project, ${OPS} operations each)`, { timeout: 180_000 }, async () => {
    const started = performance.now();
    // Two plans, so that both key-creation paths run: batched without a limit, locked with one.
    const [alpha, bravo] = (await Promise.all([t.newProject('team'), t.newProject('solo')])).map(
      (p, i): World => ({
        tag: i === 0 ? 'alpha' : 'bravo',
        p,
        other: undefined as unknown as World,
        tombstones: new Map(),
        deadGroups: new Map(),
        purged: new Map(),
        answered: new Map(),
        volatileWrites: new Map(),
        poolIds: new Map(),
        ownIds: [],
        groupsSeen: new Set(),
      }),
    ) as [World, World];
    alpha.other = bravo;
    bravo.other = alpha;
    // One project rebuilds by itself after writes too (debounced), beside the explicit rebuilds.
    expect((await t.admin('PATCH', `/projects/${bravo.p.projectId}`, { auto_rebuild: true })).status).toBe(200);
    for (const w of [alpha, bravo]) {
      for (const code of [...STABLE, VOLATILE[0]]) await request(w, 'setup', [201], 'POST', '/v1/languages', { code });
      // A body of some size in `de`: its live read takes long enough that a request may arrive
      // while another's statement for it is in flight, the case live-flights.ts exists for.
      const filler = Object.fromEntries(Array.from({ length: FILLER }, (_, i) => [`${w.tag}-fill.n${i}`, `${w.tag}:fill:${i}`]));
      const seedFile = JSON.stringify({ ...filler, [`${w.tag}-pair.a`]: `${w.tag}:seed`, [`${w.tag}-pair.b`]: `${w.tag}:seed` });
      await request(w, 'setup', [200], 'POST', '/v1/import/de?status=approved', seedFile);
      await request(w, 'setup', [202], 'POST', '/v1/cache/rebuild');
    }
    await t.runtime.rebuilds!.idle();
    expect(violations).toEqual([]);

    const clients: Promise<void>[] = [];
    for (const [pi, w] of [alpha, bravo].entries()) {
      for (let n = 0; n < WRITERS; n++) {
        const writer = new Writer(w, n, rng(SEED * 1000 + pi * 100 + n));
        clients.push(
          (async () => {
            for (let i = 0; i < OPS; i++) await writer.step();
            await writer.finalCheck();
          })(),
        );
      }
      for (let n = 0; n < READERS; n++) {
        const r = rng(SEED * 1000 + pi * 100 + 50 + n);
        clients.push(
          (async () => {
            for (let i = 0; i < OPS; i++) await read(w, r);
          })(),
        );
      }
    }
    await Promise.all(clients);
    const mixed = performance.now();

    // A final build of each project, after every write: its files are the live reads.
    for (const w of [alpha, bravo]) await request(w, 'final', [202], 'POST', '/v1/cache/rebuild');
    await t.runtime.deps.autoRebuild.flush();
    await t.runtime.rebuilds!.due();
    await t.runtime.rebuilds!.idle();
    for (const w of [alpha, bravo]) await compareCacheWithLive(w);

    // Nothing left running, held or half-done.
    const { deps } = t.runtime;
    expect(deps.valueWrites.inFlight(), 'value batches in flight').toBe(0);
    expect(deps.keyCreations.inFlight(), 'key creation batches in flight').toBe(0);
    expect(deps.liveFlights.inFlight(), 'live reads in flight').toBe(0);
    const ids = [alpha.p.projectId, bravo.p.projectId];
    const leases = await deps.sql<{ n: number }[]>`
      select count(*)::int as n from cache_state where project_id = any(${ids}::uuid[]) and (lease_owner is not null or requested_seq > built_seq)`;
    expect(leases[0]!.n, 'build leases or pending builds left').toBe(0);
    if (REAL) {
      // Background work (statistics, the queue's poll) may be mid-statement at any one moment: what
      // is left over is what stays for seconds.
      await vi.waitFor(
        async () => {
          const [held] = await deps.sql<{ advisory: number; waiting: number; open: number }[]>`
            select (select count(*)::int from pg_locks l join pg_stat_activity a on a.pid = l.pid
                     where a.datname = current_database() and l.locktype = 'advisory') as advisory,
                   (select count(*)::int from pg_locks l join pg_stat_activity a on a.pid = l.pid
                     where a.datname = current_database() and not l.granted) as waiting,
                   (select count(*)::int from pg_stat_activity
                     where datname = current_database() and state like 'idle in transaction%') as open`;
          expect(held, 'locks or transactions left over').toEqual({ advisory: 0, waiting: 0, open: 0 });
        },
        { timeout: 5_000, interval: 100 },
      );
    }

    const errors = log.lines.filter((l) => l.level === 'error');
    for (const e of errors.slice(0, 20)) violate(`logged error: ${e.msg} ${String(e.error ?? '').slice(0, 600)}`);

    const summary = [...tally.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, byStatus]) => `${op} ${[...byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}x${n}`).join(' ')}`);
    const requests = [...tally.values()].reduce((s, m) => s + [...m.values()].reduce((a, b) => a + b, 0), 0);
    console.log(
      `concurrent mix, seed ${SEED}, ${REAL ? 'real Postgres' : 'embedded'}: ${requests} requests, mix ${Math.round(mixed - started)} ms, ` +
        `total ${Math.round(performance.now() - started)} ms\n  ${summary.join('\n  ')}`,
    );
    expect(violations).toEqual([]);
  });
});
