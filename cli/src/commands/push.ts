// `tms push`: uploads each mapped file that exists, one import per language and mapping, and says
// what changed. --remove-unused then soft-deletes the keys of the pushed groups that the source
// files no longer have (restorable through the admin API). A dry run gives the real push's answer,
// 402 included: the server checks each file's dry run alone, so the CLI adds up their translation
// units. A push that fails partway reports, with --json, the files it had already applied.
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { LoadedConfig } from '../config-file.ts';
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import type { FileKey } from '../file-keys/index.ts';
import { existingGroupFiles, fileJobs, hasGroups, iosPairs, pathFor, type FileJob } from '../file-jobs.ts';
import { canonicalLanguage, type FileMapping } from '../config-file.ts';
import { groupOfNewKey, languagesFor, projectTags, serverKeys, type ServerKey } from '../project.ts';
import { CliError, EXIT, usageError } from '../errors.ts';
import { tagOrigin, tagsOfMappings } from '../tag.ts';
import { holdsEveryLanguage } from '../formats.ts';
import { readCatalog, refuseOtherSource } from '../xcstrings-catalog.ts';

export const PUSH_HELP = `tms push [--language L]... [--status draft|review|approved] [--conflict overwrite|keep|fail]
         [--tag T] [--dry-run] [--remove-unused] [--json]

Uploads each mapped file that exists, for every language of the project (or the --language ones),
and prints per file the keys created, values created / updated / unchanged and translation units.
No mapped file at all: exit 1. An iOS Localizable.strings is pushed without the keys of the
Localizable.stringsdict beside it (iOS uses the .stringsdict's plurals), and says so.
--language L     only this language (repeatable)
--status S       status of the written values: approved (default: the files a team has are what
                 it ships), review or draft
--conflict C     existing values that differ: overwrite, keep them, or fail: nothing is written and
                 the keys that would change are named (exit 1). Default: overwrite for the source
                 language's files, keep for the translations (edited on the server by translators)
--tag T          give every key of the pushed files the tag T (new keys and existing ones, whatever
                 --conflict says), e.g. --tag release-2.3; one tag, no commas. A mapping's "tag" in
                 the config does this for its files; --tag is refused for a mapping tagged otherwise
--dry-run        say what would change, 402 and 409 included; change nothing
--remove-unused  also delete (soft, restorable) the keys of the pushed groups that the source
                 language's files no longer have; a dry run lists them first. Refused (exit 1,
                 nothing pushed) when a mapping's source-language file is missing. With a tag
                 (--tag, or the mapping's), only keys with that tag are removed
Common: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --wait-for-quota`;

export type ImportAnswer = {
  keys_created: number;
  values_created: number;
  values_updated: number;
  values_unchanged: number;
  /** Of values_unchanged: values that differ, left as the server has them (an older server sends none). */
  values_kept?: number;
  /** Existing keys whose description the file changed (an older server sends none). */
  descriptions_updated?: number;
  /** With --tag: existing keys of the file that got the tag (created keys have it too). */
  keys_tagged?: number;
  translation_units: number;
  warnings: string[];
  /** Quality checks' findings in the values written (an older server sends none). */
  quality_warnings?: { count: number; values: { key: string; check: string; message: string }[] };
  /** Asked with values=true: each key of the file and the text the server reads for it. */
  values?: Record<string, string>;
};

/**
 * `namespace`: the group of a `{group}` mapping's file, whose keys are named without it.
 * `alsoInStringsdict`: the keys left out of a .strings file because the .stringsdict beside it has
 * them (iOS uses the .stringsdict's entry), by .stringsdict.
 */
type Upload = { job: FileJob; language: string; format: string; path: string; body: Buffer; namespace?: string; tag?: string; alsoInStringsdict?: AlsoIn[] };

/** Keys of a .strings file that the .stringsdict at `path`, beside it, has too. */
type AlsoIn = { path: string; keys: string[] };

const STATUSES = ['draft', 'review', 'approved'];
const CONFLICTS = ['overwrite', 'keep', 'fail'];
/** The server's bulk limit (core/keys/key-selection.ts, BULK_MAX_KEYS): an untagging goes in chunks of it. */
const BULK_KEYS = 1_000;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function push(
  ctx: Context,
  config: LoadedConfig,
  client: Client,
  flags: { language?: string[]; status?: string; conflict?: string; 'dry-run'?: boolean; 'remove-unused'?: boolean; tag?: string },
) {
  const status = flags.status ?? 'approved';
  if (!STATUSES.includes(status)) throw usageError(`--status must be one of ${STATUSES.join(', ')}`);
  if (flags.conflict !== undefined && !CONFLICTS.includes(flags.conflict)) throw usageError(`--conflict must be one of ${CONFLICTS.join(', ')}`);
  // Developers own the source text; translators own the translations, which they edit on the
  // server: a repository's older copy of a translation must not replace their work unasked.
  const conflict = (language: string) => flags.conflict ?? (language === config.sourceLanguage ? 'overwrite' : 'keep');
  const dryRun = Boolean(flags['dry-run']);
  const removeUnused = Boolean(flags['remove-unused']);
  if (removeUnused && flags.language?.length && !flags.language.map(canonicalLanguage).includes(config.sourceLanguage)) {
    throw usageError(`--remove-unused needs the source language's files: add --language ${config.sourceLanguage}`);
  }
  const languages = await languagesFor(client, flags.language, { sourceLanguage: config.sourceLanguage, line: ctx.out.line });
  // Each mapping's tag (--tag, else the mapping's own): checked in flags.ts and config-file.ts; here
  // only that the server has tags at all (an older one would ignore them).
  const tags = tagsOfMappings(config.files, flags.tag, config.file);
  if (tags.some((tag) => tag !== undefined)) await projectTags(client, tagOrigin(tags, flags.tag));

  // A `{group}` mapping's files are those that exist: one per group (an i18next namespace).
  const groupFiles = new Map<FileMapping, Map<string, string[]>>();
  const missing: FileJob[] = [];
  const notGroups: string[] = [];
  for (const [index, mapping] of config.files.entries()) {
    if (!hasGroups(mapping)) continue;
    const byLanguage = new Map<string, string[]>();
    for (const language of languages) {
      const found = await existingGroupFiles(config.root, pathFor(mapping, language));
      byLanguage.set(language, found.files.map((f) => f.group));
      notGroups.push(...found.notGroups);
      if (found.files.length === 0) missing.push({ mapping, index, language, path: pathFor(mapping, language) });
    }
    groupFiles.set(mapping, byLanguage);
  }
  // Every file first: a missing one is skipped, an unreadable one stops the push before any upload.
  const uploads: Upload[] = [];
  for (const job of fileJobs(config, languages, (mapping, language) => groupFiles.get(mapping)?.get(language) ?? [])) {
    const body = await readFile(resolve(config.root, job.path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw new CliError(`cannot read ${job.path}: ${error.code === 'EISDIR' ? 'it is a folder' : error.message}`, EXIT.failed);
    });
    if (body === null) missing.push(job);
    else {
      const tag = tags[job.index];
      uploads.push({ job, language: job.language, format: job.mapping.format, path: job.path, body, ...(job.group === undefined ? {} : { namespace: job.group }), ...(tag === undefined ? {} : { tag }) });
    }
  }
  await leaveOutStringsdictKeys(uploads);
  refuseCatalogsOfOtherSource(uploads, config.sourceLanguage);
  // What is done so far, in --json's shape: a push that fails partway says which files it applied.
  const done: PushDone & { dry_run: boolean; skipped: string[] } = { dry_run: dryRun, files: [], skipped: [...missing.map((job) => job.path), ...notGroups], removed: [] };
  try {
    refuseNothingToPush(uploads, done.skipped);
    if (removeUnused) refuseMissingSources(missing, config.sourceLanguage);
    // The source files' keys, read before anything is sent: a file the CLI cannot read stops here.
    const sources = removeUnused ? await readSources(config, uploads) : [];
    // --conflict fail promises no change when any value differs: every file is first asked as a dry
    // run, so that a conflict in the last file stops the push before the first is written.
    if (!dryRun && uploads.some((u) => conflict(u.language) === 'fail')) await checkFirst(client, uploads, status, conflict);
    await pushFiles(ctx, client, { uploads, missing, notGroups, sources, status, conflict, dryRun, removeUnused }, done);
  } catch (error) {
    if (error instanceof CliError) error.done = done;
    throw error;
  }
  ctx.out.result(done);
  return 0;
}

/**
 * A String Catalog whose sourceLanguage is not the config's would import no source text (its keys
 * are their own texts only in its sourceLanguage): refused before anything is sent. A catalog the
 * CLI cannot read goes as it is, and the server's 422 says what is wrong with it.
 */
function refuseCatalogsOfOtherSource(uploads: Upload[], sourceLanguage: string): void {
  for (const upload of uploads) {
    if (!holdsEveryLanguage(upload.format)) continue;
    let catalog;
    try {
      catalog = readCatalog(upload.body);
    } catch {
      continue;
    }
    refuseOtherSource(upload.path, catalog.sourceLanguage, sourceLanguage);
  }
}

type PushedFile = { path: string; language: string; format: string; also_in_stringsdict?: AlsoIn[] } & ImportAnswer;

/**
 * `genstrings` writes every NSLocalizedString key into Localizable.strings, plural keys too, and
 * iOS takes a key's .stringsdict entry over its .strings one. Pushed as they are, both files wrote
 * the key: the first file's text won in a translation (the other was kept against it, --conflict
 * keep) and the last one's in the source, and the next pull took the plural out of the
 * .stringsdict. So a .strings file of an iOS pair (iosPairs, as pull pairs them) is pushed without
 * the keys of the .stringsdict files beside it. A file the CLI cannot read is pushed as it is (the
 * server names what is wrong with it).
 */
async function leaveOutStringsdictKeys(uploads: Upload[]): Promise<void> {
  const pairs = iosPairs(uploads.map((u) => u.job));
  if (pairs.size === 0) return;
  const { keysOf } = await import('../file-keys/index.ts');
  const { stringsKeys, stringsWithout } = await import('../file-keys/strings.ts');
  const byJob = new Map(uploads.map((u) => [u.job, u]));
  const dictKeys = new Map<Upload, Set<string> | null>();
  const keysIn = async (dict: Upload) => {
    if (!dictKeys.has(dict)) dictKeys.set(dict, await keysOf(dict.format, dict.body, dict.language).then((keys) => new Set(keys.map((k) => k.key)), () => null));
    return dictKeys.get(dict)!;
  };
  for (const u of uploads) {
    if (u.format !== 'ios-strings' || !pairs.has(u.job)) continue;
    let own: string[];
    try {
      own = stringsKeys(u.body);
    } catch {
      continue;
    }
    const taken = new Set<string>();
    const alsoIn: AlsoIn[] = [];
    for (const dict of pairs.get(u.job)!.map((job) => byJob.get(job)!)) {
      const theirs = await keysIn(dict);
      const keys = own.filter((key) => theirs?.has(key) && !taken.has(key));
      keys.forEach((key) => taken.add(key));
      if (keys.length > 0) alsoIn.push({ path: dict.path, keys });
    }
    if (taken.size === 0) continue;
    u.body = stringsWithout(u.body, taken);
    u.alsoInStringsdict = alsoIn;
  }
}

/** How many paths a refusal names; it says how many more there are. */
const NAMED = 10;
const pathList = (paths: string[]) => paths.slice(0, NAMED).join(', ') + (paths.length > NAMED ? ` and ${paths.length - NAMED} more` : '');

/**
 * No mapped file at all: a push run in the wrong folder, or a config whose paths name nothing, did
 * nothing and said so only in "skipped" lines. CI took the exit 0 for a push.
 */
function refuseNothingToPush(uploads: Upload[], skipped: string[]): void {
  if (uploads.length > 0) return;
  throw new CliError(`no mapped file exists${skipped.length ? `: ${pathList(skipped)}` : ''}; nothing was pushed. Check files[].path in the config (paths are relative to its folder)`, EXIT.failed);
}

/**
 * --remove-unused compares the source language's files with the server's keys. A mapping whose
 * source file is missing has no keys to offer, so its keys count as unused wherever another
 * mapping's file touches their group, and would be deleted: refused, before anything is sent.
 */
function refuseMissingSources(missing: FileJob[], sourceLanguage: string): void {
  const paths = missing.filter((job) => job.language === sourceLanguage).map((job) => job.path);
  if (paths.length === 0) return;
  const one = paths.length === 1;
  throw new CliError(
    `--remove-unused: the source language's ${one ? 'file' : 'files'} ${pathList(paths)} ${one ? 'does' : 'do'} not exist, ` +
      `so the keys only ${one ? 'it has' : 'they have'} would count as unused and be deleted; nothing was pushed. Restore ${one ? 'it' : 'them'}, or push without --remove-unused`,
    EXIT.failed,
  );
}

/** One file's import (or its dry run); a refusal names the local file first (a 422 names a line, not the file). */
async function sendImport(client: Client, u: Upload, status: string, conflict: (language: string) => string, dryRun: boolean, values = false): Promise<{ path: string; answer: ImportAnswer }> {
  const query = new URLSearchParams({ format: u.format, status, conflict: conflict(u.language), dry_run: String(dryRun) });
  if (u.namespace !== undefined) query.set('namespace', u.namespace);
  if (u.tag !== undefined) query.set('tag', u.tag);
  if (values) query.set('values', 'true');
  const path = `/v1/import/${encodeURIComponent(u.language)}?${query}`;
  const res = await client.request('POST', path, { body: u.body, headers: { 'Content-Type': 'application/octet-stream' } }).catch((error: unknown) => {
    if (error instanceof CliError) error.message = `${u.path}: ${error.message}`;
    throw error;
  });
  return { path, answer: (await res.json()) as ImportAnswer };
}

/** How many keys a refusal names; it says how many more there are. */
const LISTED = 20;
const keyList = (keys: string[]) => keys.slice(0, LISTED).join(', ') + (keys.length > LISTED ? ` and ${keys.length - LISTED} more` : '');

/**
 * Every file's dry run, before anything is written: the first refusal stops the push (nothing
 * pushed). Each dry run is checked against the server alone, so files of one language that give one
 * key different texts (a key new to the project in a web app's and a mobile app's file) would pass
 * it and then stop the real push at the second file, with the first written: their dry runs also
 * answer the texts they read (values=true), and any key two of them disagree on refuses the push.
 */
async function checkFirst(client: Client, uploads: Upload[], status: string, conflict: (language: string) => string) {
  const count = new Map<string, number>();
  for (const u of uploads) count.set(u.language, (count.get(u.language) ?? 0) + 1);
  const compared = (u: Upload) => conflict(u.language) === 'fail' && count.get(u.language)! > 1;
  const first = new Map<string, { path: string; value: string }>();
  const differing: string[] = [];
  // Units the push would spend at least: each dry run's, less a key a later file of its language
  // repeats with the same text (that file finds it stored, unchanged and free).
  let units = 0;
  for (const u of uploads) {
    const { answer } = await sendImport(client, u, status, conflict, true, compared(u)).catch((error: unknown) => {
      if (error instanceof CliError) error.message = `${error.message} (every file was checked before writing: nothing was pushed)`;
      throw error;
    });
    units += answer.translation_units;
    for (const [key, value] of compared(u) ? Object.entries(answer.values ?? {}) : []) {
      const seen = first.get(`${u.language}\u0000${key}`);
      if (!seen) first.set(`${u.language}\u0000${key}`, { path: u.path, value });
      else if (seen.value !== value) differing.push(`${key} (${u.language}): ${JSON.stringify(seen.value)} in ${seen.path}, ${JSON.stringify(value)} in ${u.path}`);
      else units -= 1;
    }
  }
  if (differing.length === 0) {
    // Each dry run was checked against the month's usage alone; together the files could pass the
    // limit at a later file (402) with the earlier ones written. Refused only when certain.
    if (units > 0) {
      const quota = await unitQuota(client);
      if (quota.limit !== null && quota.used + units > quota.limit) {
        throw new CliError(
          `--conflict fail: monthly translation-unit quota exceeded (402 QUOTA_EXCEEDED): each file fits alone, but together the push would use at least ${quota.used + units} of ${quota.limit}, ` +
            `so it would stop partway with the first files written; the quota resets on ${quota.resetDate}. Upgrade the plan, or push fewer changes before then. Nothing was pushed.`,
          EXIT.quota,
        );
      }
    }
    return;
  }
  const more = differing.length > LISTED ? `; and ${differing.length - LISTED} more` : '';
  throw new CliError(
    `--conflict fail: files of one language give ${differing.length === 1 ? 'a key different texts' : `${differing.length} keys different texts`}, ` +
      `so the push would stop (409) at the second file after writing the first: ${differing.slice(0, LISTED).join('; ')}${more}. ` +
      'Make the files agree, or push with --conflict overwrite (the last file wins) or keep (the first wins). Nothing was pushed.',
    EXIT.failed,
  );
}

type PushPlan = {
  uploads: Upload[];
  /** The mapped files that do not exist: skipped. */
  missing: FileJob[];
  /** Files of a `{group}` mapping whose group part is no group name: skipped. */
  notGroups: string[];
  sources: Source[];
  status: string;
  conflict: (language: string) => string;
  dryRun: boolean;
  removeUnused: boolean;
};

/** What a push did, in --json's shape. `untagged`: with --remove-unused and tagged files, the keys that lost a tag. */
type PushDone = { files: PushedFile[]; removed: { id: string; key: string; group: string }[]; untagged?: { id: string; key: string; tag: string }[] };

async function pushFiles(ctx: Context, client: Client, plan: PushPlan, done: PushDone) {
  const { uploads, missing, notGroups, sources, status, conflict, dryRun, removeUnused } = plan;
  // A dry run asks about each file alone; the real push spends the files' units one after another.
  const quota = dryRun ? await unitQuota(client) : null;
  let units = 0;
  // A dry run with --remove-unused lists the keys first: its file lines wait until then.
  const held: string[] = [];
  const say = (text: string) => (dryRun && removeUnused ? held.push(text) : ctx.out.line(text));
  const flush = () => held.splice(0).forEach((text) => ctx.out.line(text));
  await ctx.out.progress(
    'pushing',
    uploads.map((u) => async () => {
      const { path, answer } = await sendImport(client, u, status, conflict, dryRun);
      units += answer.translation_units;
      if (quota) checkQuota(quota, answer.translation_units, units, `POST ${path}`);
      say(
        `${u.path} (${u.language}, ${u.format}): ${dryRun ? 'would create' : 'created'} ${plural(answer.keys_created, 'key')}, ` +
          `${plural(answer.values_created, 'value')}; ${dryRun ? 'would update' : 'updated'} ${answer.values_updated}; ` +
          `unchanged ${answer.values_unchanged}; ${plural(answer.translation_units, 'translation unit')}`,
      );
      for (const also of u.alsoInStringsdict ?? []) {
        say(`  ${plural(also.keys.length, 'key')} also in ${basename(also.path)}: its plurals are used (${keyList(also.keys)})`);
      }
      const kept = answer.values_kept ?? 0;
      if (kept > 0) say(`  kept ${plural(kept, 'value')} that differ${kept === 1 ? 's' : ''} on the server (--conflict overwrite replaces them)`);
      const described = answer.descriptions_updated ?? 0;
      if (described > 0) say(`  ${dryRun ? 'would change' : 'changed'} the description of ${plural(described, 'key')}`);
      const tagged = answer.keys_tagged ?? 0;
      if (tagged > 0) say(`  ${dryRun ? 'would tag' : 'tagged'} ${plural(tagged, 'existing key')} ${JSON.stringify(u.tag)}`);
      for (const warning of answer.warnings) say(`  warning: ${warning}`);
      const quality = answer.quality_warnings;
      for (const w of quality?.values ?? []) say(`  quality (${w.check}): ${w.key}: ${w.message}`);
      if (quality && quality.count > quality.values.length) say(`  quality: ${quality.count - quality.values.length} more warnings`);
      done.files.push({ path: u.path, language: u.language, format: u.format, ...answer, ...(u.alsoInStringsdict ? { also_in_stringsdict: u.alsoInStringsdict } : {}) });
    }),
  ).catch((error: unknown) => {
    flush();
    throw error;
  });
  for (const job of missing) say(`${job.path}: no file, skipped`);
  for (const path of notGroups) say(`${path}: not a group name (letters, digits, spaces, - _ .), skipped`);
  // Each file's dry run is asked alone: a key new to the project is "would create" in every file
  // that has it, where the push creates it once (with the first file) and then only adds values.
  // Said when files of several languages create keys (a source file and its translations, which
  // share their keys); files of one language (namespaces, one per group) rarely share any.
  const creating = done.files.filter((f) => f.keys_created > 0);
  if (dryRun && new Set(creating.map((f) => f.language)).size > 1) {
    say(`note: ${creating.length} files would create keys, each file's dry run counted alone: a new key in several of them is counted in each, and the push creates it once`);
  }
  if (!removeUnused) return;

  let unused: ServerKey[] = [];
  let onServer: ServerKey[] = [];
  const answers = new Map(done.files.map((r) => [r.path, r]));
  try {
    // After a real push every key of the files is on the server, in its group; a dry run sees the
    // keys as they are, and places the keys it would create by their name (or the group column of
    // csv and xlsx).
    unused = unusedKeys(
      sources.map((s) => ({ ...s, answer: answers.get(s.path)! })),
      (onServer = await serverKeys(client)),
      !dryRun,
    );
  } finally {
    // On an error, or with nothing to list first, the file lines need not wait.
    if (unused.length === 0) flush();
  }
  const names = unused.map((k) => k.key).join(', ');
  if (dryRun) ctx.out.line(unused.length ? `would remove ${plural(unused.length, 'unused key')}: ${names}` : 'no unused keys');
  flush();
  const removed = unused.map((k) => ({ id: k.id, key: k.key, group: k.group_name }));
  // Keys a tagged app dropped that another app still has: they lose that app's tag.
  const untag = untaggedKeys(sources, onServer, unused);
  if (untag.length > 0) done.untagged = [];
  if (dryRun) {
    done.removed.push(...removed);
    for (const { tag, keys } of untag) {
      ctx.out.line(`would untag ${plural(keys.length, 'key')} ${JSON.stringify(tag)} (no longer in its files, kept): ${keys.map((k) => k.key).join(', ')}`);
      done.untagged!.push(...keys.map((k) => ({ id: k.id, key: k.key, tag })));
    }
    return;
  }
  for (const { tag, keys } of untag) {
    for (let i = 0; i < keys.length; i += BULK_KEYS) {
      const chunk = keys.slice(i, i + BULK_KEYS);
      const body = new TextEncoder().encode(JSON.stringify({ key_ids: chunk.map((k) => k.id), remove: [tag] }));
      await client.request('POST', '/v1/keys/bulk-tags', { body, headers: { 'Content-Type': 'application/json' } });
      done.untagged!.push(...chunk.map((k) => ({ id: k.id, key: k.key, tag })));
    }
    ctx.out.line(`untagged ${plural(keys.length, 'key')} ${JSON.stringify(tag)} (no longer in its files, kept): ${keys.map((k) => k.key).join(', ')}`);
  }
  for (const [i, key] of unused.entries()) {
    await client.request('DELETE', `/v1/keys/${key.id}`, { accept: [404] });
    done.removed.push(removed[i]!);
  }
  ctx.out.line(unused.length ? `removed ${plural(unused.length, 'unused key')} (restorable): ${names}` : 'no unused keys');
}

/** The spec's hard limit: usage may run to twice the plan's monthly allowance (docs/files.md). */
const HARD_LIMIT_FACTOR = 2;

/** The monthly translation-unit quota as the server applies it (a null limit: no limit). */
type UnitQuota = { used: number; limit: number | null; resetDate: string };

/** Where the account stands (GET /v1/usage), and the limit the server's imports are held to. */
async function unitQuota(client: Client): Promise<UnitQuota> {
  const usage = await client.json<{ translation_units_used: number; translation_units_allowance: number | null; cycle_resets_at: string }>('GET', '/v1/usage');
  const allowance = usage.translation_units_allowance;
  return { used: usage.translation_units_used, limit: allowance === null ? null : allowance * HARD_LIMIT_FACTOR, resetDate: usage.cycle_resets_at.slice(0, 10) };
}

/**
 * A dry run's answer for the files together: each file's dry run was checked against the usage
 * alone, but the real push charges the files one after another, so it would be refused (402) at the
 * file where the sum passes the limit, with the files before it applied. A file that costs nothing
 * is never refused, as on the server.
 */
function checkQuota(quota: UnitQuota, fileUnits: number, total: number, what: string): void {
  if (quota.limit === null || fileUnits === 0 || quota.used + total <= quota.limit) return;
  throw new CliError(
    `${what}: monthly translation-unit quota exceeded (402 QUOTA_EXCEEDED): with the files before it, the push would use ${quota.used + total} of ${quota.limit}; ` +
      `the quota resets on ${quota.resetDate}. Upgrade the plan, or push fewer changes before then. (Dry run: nothing was written.)`,
    EXIT.quota,
  );
}

/** A source-language file's keys; `tag`: its mapping's (--remove-unused then removes only keys with it). */
export type Source = { path: string; keys: FileKey[]; tag?: string };

async function readSources(config: LoadedConfig, uploads: Upload[]): Promise<Source[]> {
  const files = uploads.filter((u) => u.language === config.sourceLanguage);
  if (files.length === 0) throw usageError(`--remove-unused needs the source language's files (${config.sourceLanguage}); none of its mapped files exists`);
  const { keysOf } = await import('../file-keys/index.ts');
  const sources: Source[] = [];
  for (const f of files) {
    try {
      // In NFC, as the server stores names: a file a macOS tool wrote in NFD names the keys the
      // server has (compared as written, every such key would count as unused).
      const keys = (await keysOf(f.format, f.body, f.language)).map(({ key, group }) =>
        group === undefined ? { key: key.normalize('NFC') } : { key: key.normalize('NFC'), group: group.normalize('NFC') },
      );
      // A namespace file's keys are its group's, named without the group (as the server reads them).
      const ns = f.namespace?.normalize('NFC');
      sources.push({ path: f.path, keys: ns === undefined ? keys : keys.map((k) => ({ key: `${ns}.${k.key}`, group: ns })), ...(f.tag === undefined ? {} : { tag: f.tag }) });
    } catch (error) {
      throw new CliError(`${f.path} cannot be read as ${f.format}: ${(error as Error).message}; nothing was pushed`, EXIT.failed);
    }
  }
  return sources;
}

/**
 * The keys of the groups the source files touch that those files no longer have. Checked against
 * the server's own reading: every key the server read in a file must be one the CLI found there,
 * else nothing is removed (a key the CLI missed would be deleted). A file with a tag (--tag, or its
 * mapping's) speaks only for the keys that have it, in its groups: these files are the tagged keys'
 * (a mobile app's), and another app's keys in the same groups are not theirs to remove.
 */
export function unusedKeys(sources: (Source & { answer: ImportAnswer })[], keys: ServerKey[], afterPush: boolean): ServerKey[] {
  const onServer = new Map(keys.map((k) => [k.key, k]));
  const inFiles = new Set<string>();
  // Per tag (undefined: every key), the groups its files touch.
  const claims = new Map<string | undefined, Set<string>>();
  for (const { path, keys: fileKeys, answer, tag } of sources) {
    const read = answer.values_created + answer.values_updated + answer.values_unchanged;
    const known = new Set(fileKeys.map((k) => k.key).filter((k) => onServer.has(k))).size;
    if (known < read - (afterPush ? 0 : answer.keys_created)) {
      throw new CliError(
        `--remove-unused: the server read ${read} keys in ${path}, but the CLI recognised only ${known} of them, so it cannot tell which keys are unused; ` +
          `nothing was removed${afterPush ? ' (the files were pushed)' : ''}. Please report this with the file.`,
        EXIT.failed,
      );
    }
    const groups = claims.get(tag) ?? claims.set(tag, new Set()).get(tag)!;
    for (const { key, group } of fileKeys) {
      inFiles.add(key);
      const stored = onServer.get(key);
      if (stored) groups.add(stored.group_name);
      else if (!afterPush) groups.add(group ?? groupOfNewKey(key));
    }
  }
  const claimed = (k: ServerKey) => [...claims].some(([tag, groups]) => groups.has(k.group_name) && (tag === undefined || (k.tags ?? []).includes(tag)));
  return keys.filter((k) => !inFiles.has(k.key) && claimed(k));
}

/**
 * The keys a tagged app's files no longer have that are not removed (another app's files, or a
 * group those files do not touch, keep them): no longer that app's, so they lose its tag; kept, the
 * next pull wrote them back into the app's files. A tag is the whole claim here, whatever the group:
 * the files of a tag hold every key with it (pull writes them all), and losing a tag deletes
 * nothing. Per tag of the source files, their keys pooled.
 */
export function untaggedKeys(sources: readonly Source[], keys: ServerKey[], unused: readonly ServerKey[]): { tag: string; keys: ServerKey[] }[] {
  const removed = new Set(unused.map((k) => k.key));
  const inFiles = new Map<string, Set<string>>();
  for (const { keys: fileKeys, tag } of sources) {
    if (tag === undefined) continue;
    const of = inFiles.get(tag) ?? inFiles.set(tag, new Set()).get(tag)!;
    for (const { key } of fileKeys) of.add(key);
  }
  return [...inFiles]
    .map(([tag, names]) => ({ tag, keys: keys.filter((k) => (k.tags ?? []).includes(tag) && !names.has(k.key) && !removed.has(k.key)) }))
    .filter((t) => t.keys.length > 0);
}
