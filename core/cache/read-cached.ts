// Reads of the built cache: never the translation tables. Every read resolves the pointer once and
// takes all it serves from that one build, so no reader mixes two builds.
import type { Deps } from '../deps.ts';
import * as v from 'valibot';
import { AppError, notFound } from '../errors.ts';
import { InProject } from '../commands.ts';
import { useCase } from '../use-case.ts';
import { mayNameGroup, nfc } from '../validation.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { contentHash } from './encode-variants.ts';
import { readBuildState, type BuildState } from './build-state.ts';
import { BUILD_ID_PATTERN, groupKey, languageKey, manifestKey, type BuildIndex, type Encoding, type FileEntry, type FileSet, type Pointer, type Variant } from './layout.ts';
import { MAX_KEPT_BUILDS } from './retention.ts';

type CacheDeps = Pick<Deps, 'cache'>;

/** A stored representation: etags known from the index, bytes loaded only when needed. */
export type CachedFile = {
  entry: FileEntry;
  builtAt: string;
  /** Whether Last-Modified (builtAt in whole seconds) tells this build from the one before it. */
  datedApart: boolean;
  load(encoding: Encoding): Promise<Uint8Array>;
};

export const notReady = () =>
  new AppError(
    'not_ready',
    'The translation cache has not been built yet: POST /v1/cache/rebuild, then poll GET /v1/cache/status until ready is true',
  );

async function currentBuild(deps: CacheDeps, projectId: string): Promise<BuildIndex> {
  const known = deps.cache.currentIndexInMemory(projectId);
  if (known) return known;
  // A build replaced and collected between our pointer read and the index read: one fresh retry.
  for (const fresh of [false, true]) {
    const pointer = await deps.cache.pointer(projectId, { fresh });
    if (!pointer) throw notReady();
    const index = await deps.cache.index(projectId, pointer.build_id);
    if (index) return index;
  }
  throw new AppError('dependency', 'The current cache build could not be read; retry shortly');
}

function fileOf(deps: CacheDeps, index: BuildIndex, entry: FileEntry, keyOf: (e: Encoding) => string, named?: string): CachedFile {
  return {
    entry,
    builtAt: index.built_at,
    datedApart: index.shares_second !== true,
    async load(encoding) {
      const bytes = await deps.cache.file(keyOf(encoding));
      if (bytes) return bytes;
      // A named build's file deleted under us: the pointer that dropped the build was published
      // before the deletion, so a fresh read of it tells a collected build (404) from a fault.
      if (named !== undefined && !keeps(await deps.cache.pointer(index.project_id, { fresh: true }), named)) throw buildGone(named);
      throw new AppError('dependency', 'A cache file of the current build is missing; retry shortly');
    },
  };
}

/**
 * Why a language has no file in a build. The builder builds the languages that had a value of their
 * own at its snapshot (those of the manifest); a fallback chain fills a built language's missing
 * keys but does not build a language with none. Builds made before the index listed the registered
 * languages get the message that covers every case.
 */
function languageMissing(index: BuildIndex, code: string) {
  const build = `build ${index.build_id}`;
  if (!index.registered) {
    return notFound(
      `Language '${code}' is not in the translation cache (${build}): it was not a language of this project, or it had no translation values of its own when the cache was built`,
    );
  }
  if (index.registered.includes(code)) {
    return notFound(
      `Language '${code}' had no translation values of its own when the cache was built (${build}), so it has no file: a language is built once it has at least one value, and a fallback chain fills in only for a language that is built; add a value, then rebuild`,
    );
  }
  return notFound(
    `Language '${code}' is not a language of this project (it was not registered when the cache was built, ${build}; a language registered since is built by the next rebuild once it has a value)`,
  );
}

const ProjectCommand = v.object({ ...InProject });
/** Which body: fallbacks applied (the default), the language's own values only, or with sources. */
export const FallbackVariant = v.picklist(['default', 'raw', 'explain']);
const LanguageCommand = v.object({ ...InProject, language: LanguageCode, variant: v.optional(FallbackVariant, 'default') });
// Group and key names are any string: one that could never exist is simply not in the cache.
const GroupCommand = v.object({ ...LanguageCommand.entries, group: v.string() });
const ValueCommand = v.object({ ...GroupCommand.entries, key: v.string() });
/** A build named by its id (the versioned URLs): checked before it becomes part of an object key. */
export const BuildId = v.pipe(v.string(), v.regex(BUILD_ID_PATTERN, 'must be a build id, such as 20260101T000000000Z-0123abcd'));
const BuildLanguageCommand = v.object({ ...LanguageCommand.entries, buildId: BuildId });
const BuildGroupCommand = v.object({ ...GroupCommand.entries, buildId: BuildId });

const groupMissing = (group: string, code: string) =>
  notFound(`Group '${group}' has no approved translations for language '${code}' in the translation cache`);

/**
 * The files of a language in the asked variant. A language without a chain has one body, which is
 * its raw body too; `explain` then serves it as is (no `sources`: nothing was filled in).
 */
function filesOf(language: BuildIndex['languages'][string], variant: Variant): { set: FileSet; variant: Variant } {
  if (variant === 'default' || !language.fallback) return { set: language, variant: 'default' };
  return { set: language.fallback[variant], variant };
}

/** `named`: the build id when the URL named the build (not the current build's mutable path). */
function languageFile(deps: CacheDeps, projectId: string, index: BuildIndex, code: string, variant: Variant, named?: string): CachedFile {
  const language = index.languages[code];
  if (!language) throw languageMissing(index, code);
  const files = filesOf(language, variant);
  return fileOf(deps, index, files.set.file, (e) => languageKey(projectId, index.build_id, code, e, files.variant), named);
}

/**
 * The name under which a build holds what a request names: in NFC, else as asked. Names are stored
 * in NFC (core/validation.ts), so a build holds them so, and the live reads take a name in NFC;
 * a build made before holds them as they were written (served as it is until the next build),
 * and a project may keep an NFC key and its look-alike twin from before migration 024, where the
 * NFC one answers, as on the live reads. An ASCII name is its own NFC: looked up as it is.
 */
function builtName(names: object, name: string): string | undefined {
  const asked = Object.hasOwn(names, name);
  if (asked && !NON_ASCII.test(name)) return name;
  const normalized = nfc(name);
  if (normalized !== name && Object.hasOwn(names, normalized)) return normalized;
  return asked ? name : undefined;
}
const NON_ASCII = /[^\x00-\x7f]/;

/** Whether a group of this name, as asked or in NFC, can exist (the NFC form can be shorter). */
const mayBeGroup = (group: string) => mayNameGroup(group) || mayNameGroup(nfc(group));

function groupFile(deps: CacheDeps, projectId: string, index: BuildIndex, code: string, asked: string, variant: Variant, named?: string): CachedFile {
  const language = index.languages[code];
  if (!language) throw languageMissing(index, code);
  const files = filesOf(language, variant);
  const group = builtName(files.set.groups, asked);
  if (group === undefined) throw groupMissing(asked, code);
  return fileOf(deps, index, files.set.groups[group]!, (e) => groupKey(projectId, index.build_id, code, group, e, files.variant), named);
}

export const cachedLanguage = useCase(LanguageCommand, async (deps: CacheDeps, { projectId, language: code, variant }): Promise<CachedFile> =>
  languageFile(deps, projectId, await currentBuild(deps, projectId), code, variant),
);

export const cachedGroup = useCase(GroupCommand, async (deps: CacheDeps, { projectId, language: code, group, variant }): Promise<CachedFile> => {
  if (!mayBeGroup(group)) throw groupMissing(group, code);
  return groupFile(deps, projectId, await currentBuild(deps, projectId), code, group, variant);
});

/**
 * A named build of the caller's project. The object keys hold the project id, so another project's
 * build id finds nothing here: a 404 like an unknown or collected build. A build the current pointer
 * no longer keeps is a 404 too, for every file, though this server may still hold some of its files
 * in memory: every server answers the same (within the pointer's TTL), and as after a restart.
 */
async function namedBuild(deps: CacheDeps, projectId: string, buildId: string): Promise<BuildIndex> {
  if (!keeps(await deps.cache.pointer(projectId), buildId)) throw buildGone(buildId);
  const index = await deps.cache.index(projectId, buildId);
  if (!index) throw buildGone(buildId);
  return index;
}

/** Whether the pointer still serves a build by its URL (pointers without the list: while its index exists). */
const keeps = (pointer: Pointer | null, buildId: string) => !pointer?.kept || pointer.kept.includes(buildId);

const buildGone = (buildId: string) =>
  notFound(
    `Build '${buildId}' is not in the translation cache of this project: it never was, or it is no longer kept (a newer build replaced it; replaced builds are kept up to an hour, at most ${MAX_KEPT_BUILDS} builds in all). Read GET /v1/cached/manifest again for the current URLs`,
  );

export const cachedBuildLanguage = useCase(BuildLanguageCommand, async (deps: CacheDeps, input): Promise<CachedFile> =>
  languageFile(deps, input.projectId, await namedBuild(deps, input.projectId, input.buildId), input.language, input.variant, input.buildId),
);

export const cachedBuildGroup = useCase(BuildGroupCommand, async (deps: CacheDeps, input): Promise<CachedFile> => {
  if (!mayBeGroup(input.group)) throw groupMissing(input.group, input.language);
  const index = await namedBuild(deps, input.projectId, input.buildId);
  return groupFile(deps, input.projectId, index, input.language, input.group, input.variant, input.buildId);
});

/** One key's cached answer, `{"value": …}`, serialized with its strong ETag once per build. */
export type CachedValue = { body: string; etag: string; builtAt: string; datedApart: boolean };

// Module-level, not closures made per request: the hottest read should allocate (and, under tsx's
// keepNames, name) no function per call.
const valueMissing = (code: string, group: string, key: string) =>
  notFound(`No approved translation of key '${key}' in group '${group}' for language '${code}' in the translation cache`);

/** A group file's values by key, and the answers made from them so far. */
type GroupAnswers = { translations: Record<string, string>; made: Map<string, CachedValue> };
function groupAnswers(bytes: Uint8Array): GroupAnswers {
  const { translations } = JSON.parse(Buffer.from(bytes).toString('utf8')) as { translations: Record<string, string> };
  return { translations, made: new Map<string, CachedValue>() };
}

export const cachedValue = useCase(ValueCommand, async (deps: CacheDeps, input): Promise<CachedValue> => {
  const { projectId, language: code, group: askedGroup, key: askedKey } = input;
  if (!mayBeGroup(askedGroup)) throw groupMissing(askedGroup, code);
  const index = deps.cache.currentIndexInMemory(projectId) ?? (await currentBuild(deps, projectId));
  const language = index.languages[code];
  if (!language) throw valueMissing(code, askedGroup, askedKey);
  // A key's value is the same in the default and explain bodies: only raw differs.
  const files = filesOf(language, input.variant === 'raw' ? 'raw' : 'default');
  const group = builtName(files.set.groups, askedGroup);
  if (group === undefined) throw valueMissing(code, askedGroup, askedKey);
  // The group file, parsed once per build and process, answers every key of the group; each key's
  // body and ETag are made on its first request and kept with the parsed file.
  const answersKey = groupKey(projectId, index.build_id, code, group, 'identity', files.variant);
  const answers = deps.cache.derivedInMemory<GroupAnswers>(answersKey) ?? (await deps.cache.derived(answersKey, groupAnswers));
  const key = answers ? builtName(answers.translations, askedKey) : undefined;
  if (!answers || key === undefined) throw valueMissing(code, askedGroup, askedKey);
  let answer = answers.made.get(key);
  if (!answer) {
    const body = JSON.stringify({ value: answers.translations[key] });
    answer = { body, etag: `"${contentHash(body)}"`, builtAt: index.built_at, datedApart: index.shares_second !== true };
    answers.made.set(key, answer);
  }
  return answer;
});

export const cachedManifest = useCase(ProjectCommand, async (deps: CacheDeps, { projectId }): Promise<CachedFile> => {
  const index = await currentBuild(deps, projectId);
  const etag = index.manifest.etag;
  const entry: FileEntry = { etag, etags: { identity: etag, gzip: etag, br: etag }, bytes: 0 };
  return fileOf(deps, index, entry, () => manifestKey(projectId, index.build_id));
});

export type CacheStatus = { project_id: string; last_rebuilt_at: string | null; ready: boolean } & BuildState;

/**
 * What the cached endpoints serve right now (a fresh pointer read, not the serving TTL), and beside
 * the spec's fields whether a requested build is still to come or failing (core/cache/build-state.ts).
 */
export const cacheStatus = useCase(ProjectCommand, async (deps: CacheDeps & Pick<Deps, 'sql'>, { projectId }): Promise<CacheStatus> => {
  const [pointer, state] = await Promise.all([deps.cache.pointer(projectId, { fresh: true }), readBuildState(deps.sql, projectId)]);
  return { project_id: projectId, last_rebuilt_at: pointer?.built_at ?? null, ready: pointer !== null, ...state };
});
