// POST /v1/translate/{language}: the spec's "bulk translation". Fills a language's values from the
// account's translation memory first (exact matches of the source text: free, as the spec says of
// memory hits), then from the configured machine translation provider (each value written is a
// translation unit). Placeholders and ICU structure are protected on the way out and verified on
// the way back; a value that came back broken is reported, never written.
//
// Order matters for "nothing half written": the selection is read, the units the provider's part
// would cost are checked BEFORE the provider is called (402 costs nothing), every translation is
// gathered in memory, and only then is everything written in one transaction, which charges the
// units of the texts it changed and records one event (which queues the debounced rebuild of portal actions and imports),
// plus, as an import does, one translation.written per existing value it replaced (History's revert).
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { transaction } from '../db/transaction.ts';
import type { TransactionSql } from '../db/client.ts';
import { AppError, notFound, validationError } from '../errors.ts';
import { WriteInProject } from '../commands.ts';
import { useCase } from '../use-case.ts';
import { StoredGroupName, Uuid } from '../validation.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { languageNotRegistered } from '../languages/remove-language.ts';
import { lockProject } from '../projects/lock-project.ts';
import { chargeUnits } from '../units/translation-units.ts';
import { GLOSSARY_EXTRA_TIMEOUT, ProviderError } from '../ports/machine-translator.ts';
import { checkTranslation } from '../quality/check-translation.ts';
import { protect } from './protect.ts';
import { machineGlossary, type MachineGlossary } from './glossary-for-texts.ts';
import { batches, batchLimits } from './batches.ts';
import { listedKeyIds } from '../webhooks/listed-keys.ts';
import { keptSourceRevSql } from '../translations/outdated.ts';

/** Values one call fills at most; a larger project calls again (only_missing makes that resume). */
export const MAX_VALUES_PER_CALL = 500;

export const TranslateInput = v.strictObject({
  /** Only these keys (of this project). */
  keys: v.optional(v.pipe(v.array(Uuid), v.minLength(1, 'keys must not be empty'), v.maxLength(MAX_VALUES_PER_CALL, `at most ${MAX_VALUES_PER_CALL} keys`))),
  /** Only keys of this group. */
  group: v.optional(StoredGroupName),
  /** true (default): only keys without a value in the language; false: also replace draft and review values (approved ones never). */
  only_missing: v.optional(v.boolean('only_missing must be a boolean'), true),
  /** Status of the values written; a machine's draft is never approved by the machine. */
  status: v.optional(v.picklist(['draft', 'review'], 'status must be draft or review'), 'draft'),
  /** Say what would be done (and what it would cost) without calling the provider or writing. */
  dry_run: v.optional(v.boolean('dry_run must be a boolean'), false),
});
export type TranslateInput = v.InferOutput<typeof TranslateInput>;

export const TranslateCommand = v.object({ ...WriteInProject, language: LanguageCode, ...TranslateInput.entries });

/** Why a key was not written; changed_meanwhile: its value was changed by someone else while the provider worked (and kept). */
export const SKIP_REASONS = ['no_source', 'machine_translation_off', 'placeholders_lost', 'broken_syntax', 'changed_meanwhile'] as const;

export const TranslateResult = v.object({
  project_id: Uuid,
  language: v.string(),
  source_language: v.string(),
  dry_run: v.boolean(),
  /** The provider used, or null when none is configured on this server (memory still fills). */
  provider: v.nullable(v.string()),
  /** Values written (or, in a dry run, that would be written before the provider answers). */
  translated: v.number(),
  from_memory: v.number(),
  from_provider: v.number(),
  /** Units charged: the provider's values only. */
  translation_units: v.number(),
  skipped: v.array(v.object({ key_id: Uuid, key: v.string(), reason: v.picklist(SKIP_REASONS) })),
  /** Keys still to fill beyond this call's limits (500 values; MT_TIME_LIMIT_MS of provider time): call again. */
  remaining: v.number(),
});
export type TranslateResult = v.InferOutput<typeof TranslateResult>;

/** version: the target value's as read (null: none), the only one the write may replace. */
type Candidate = { key_id: string; key: string; source: string | null; version: string | null; source_rev: string; description: string | null; max_length: number | null };

export const translateMissing = useCase(
  TranslateCommand,
  async (deps: Pick<Deps, 'sql' | 'events' | 'tx' | 'clock' | 'config' | 'log' | 'translator'>, input): Promise<TranslateResult> => {
    const { projectId, language } = input;
    const [project] = await deps.sql<{ account_id: string; source_language: string; registered: boolean }[]>`
      select p.account_id, p.source_language,
        exists (select 1 from project_languages l where l.project_id = p.id and l.code = ${language}) as registered
      from projects p where p.id = ${projectId}`;
    if (!project) throw notFound('Project not found');
    if (!project.registered) throw languageNotRegistered(language);
    const source = project.source_language;
    if (language === source) {
      throw validationError([{ loc: ['path', 'language'], msg: `${language} is the project's source language: there is nothing to translate it from`, type: 'value' }]);
    }

    if (input.keys) {
      const [found] = await deps.sql<{ missing: string[] }[]>`
        select coalesce(array_agg(n.id), '{}') as missing from unnest(${input.keys}::uuid[]) as n(id)
        where not exists (select 1 from translation_keys k where k.id = n.id and k.project_id = ${projectId} and k.deleted_at is null)`;
      if (found!.missing.length) throw notFound(`Keys not found in this project: ${found!.missing.slice(0, 10).join(', ')}`);
    }
    const rows = await deps.sql<Candidate[]>`
      select k.id as key_id, k.key, s.value as source, t.version::text as version, coalesce(s.text_rev, 0)::text as source_rev,
             k.description, k.max_length
      from translation_keys k
      left join translations s on s.key_id = k.id and s.language = ${source}
      left join translations t on t.key_id = k.id and t.language = ${language}
      where k.project_id = ${projectId} and k.deleted_at is null
        ${input.keys ? deps.sql`and k.id = any(${input.keys}::uuid[])` : deps.sql``}
        ${input.group !== undefined ? deps.sql`and k.group_name = ${input.group}` : deps.sql``}
        and ${input.only_missing ? deps.sql`t.key_id is null` : deps.sql`(t.key_id is null or t.status <> 'approved')`}
      order by k.key
      limit ${MAX_VALUES_PER_CALL + 10_000}`;
    const remaining = Math.max(0, rows.length - MAX_VALUES_PER_CALL);
    const chosen = rows.slice(0, MAX_VALUES_PER_CALL);

    const skipped: TranslateResult['skipped'] = [];
    const withSource = chosen.filter((r) => {
      if (r.source !== null && r.source.trim() !== '') return true;
      skipped.push({ key_id: r.key_id, key: r.key, reason: 'no_source' });
      return false;
    });

    // Exact memory: approved translations in this language of the same source text, anywhere in the account.
    // The texts' md5s find the candidates through the (md5, account) index of migration 019, so other
    // accounts' copies of a common text are never read; the text itself decides the match. The
    // candidates come first, on their own (materialized): joined in one statement, a planner without
    // statistics went from the account's projects to their memory by project, reading every source
    // of each (test/core/read-plans.test.ts), as soon as the trigram index, which holds the account
    // too, looked cheap with an empty pending list (migration 046 empties it after an import).
    const texts = [...new Set(withSource.map((r) => r.source!))];
    const memory = new Map<string, string>();
    if (texts.length) {
      const hits = await deps.sql<{ source: string; value: string }[]>`
        with candidates as materialized (
          select m.key_id, m.project_id, m.value
          from memory_sources m
          where md5(m.value)::uuid = any(array(select md5(x)::uuid from unnest(${texts}::text[]) as x))
            and m.account_id = ${project.account_id}
            and m.value = any(${texts}::text[])
        )
        select distinct on (c.value) c.value as source, t.value
        from candidates c
        join projects p on p.id = c.project_id and p.source_language = ${source}
        join translation_keys k on k.id = c.key_id and k.deleted_at is null
        join translations t on t.key_id = c.key_id and t.language = ${language} and t.status = 'approved'
        order by c.value, t.updated_at desc`;
      for (const h of hits) memory.set(h.source, h.value);
    }
    const fromMemory = withSource.filter((r) => memory.has(r.source!));
    let toProvider = withSource.filter((r) => !memory.has(r.source!));
    if (!deps.translator) {
      for (const r of toProvider) skipped.push({ key_id: r.key_id, key: r.key, reason: 'machine_translation_off' });
      toProvider = [];
    }

    const base = { project_id: projectId, language, source_language: source, provider: deps.translator?.provider ?? null, remaining };
    // A text with no words (`{count}`, `%1$s / %2$s`) is its own translation: copied, never sent to
    // the provider, and free like a memory hit.
    const wordless = new Set(toProvider.filter((r) => protect(r.source!).segments.length === 0).map((r) => r.key_id));
    // The units the provider's part would cost at most, checked before it is called.
    const atMost = toProvider.length - wordless.size;
    await transaction(deps, async (tx) => {
      const locked = await lockProject(tx.sql, projectId);
      await chargeUnits(tx.sql, { account: locked, units: atMost, now: deps.clock.now(), upgradeUrl: deps.config.UPGRADE_URL, dryRun: true });
    });
    if (input.dry_run) {
      return { ...base, dry_run: true, translated: fromMemory.length + toProvider.length, from_memory: fromMemory.length, from_provider: toProvider.length, translation_units: atMost, skipped };
    }

    // The glossary's terms in the texts sent, and the language's forbidden words: given to the provider.
    const glossary = toProvider.length ? await machineGlossary(deps.sql, projectId, toProvider.map((r) => r.source!), language) : null;
    const { translations: machine, unfinished } = toProvider.length
      ? await machineTranslate(deps, toProvider, source, language, skipped, glossary!)
      : { translations: new Map<string, string>(), unfinished: 0 };
    // Each translation is of the source text read above: written against it (core/translations/
    // outdated.ts), so a source changed while the provider worked leaves it outdated.
    const writes = [
      ...fromMemory.map((r) => ({ key_id: r.key_id, value: memory.get(r.source!)!, source_rev: r.source_rev })),
      ...toProvider.filter((r) => machine.has(r.key_id)).map((r) => ({ key_id: r.key_id, value: machine.get(r.key_id)!, source_rev: r.source_rev })),
    ];
    // The values read, by version: what the write may replace (only_missing read none).
    const read = chosen.filter((r) => r.version !== null);
    // The provider's translations; each is charged when it is written and changes the stored text.
    const paid = new Set([...machine.keys()].filter((id) => !wordless.has(id)));
    const { written, units, changed } = await transaction(deps, async (tx) => {
      const locked = await lockProject(tx.sql, projectId);
      // Removing a language takes the project lock too: held, the language cannot go before the
      // commit, and one removed while the provider worked is a 404 with nothing written or charged
      // (not the insert's foreign-key violation, a 500).
      if (!(await languageStillRegistered(tx.sql, projectId, language))) throw languageNotRegistered(language);
      if (!writes.length) return { written: 0, units: 0, changed: [] };
      // What is stored now for every value about to be written, locked (in key order, as every
      // multi-value write locks rows: test/keys/lock-order.test.ts) until the commit: an unchanged
      // text never counts (spec section 8), and a replaced value's own event below keeps the text
      // and status it had at the write, not at the read before the provider worked.
      const stored = await tx.sql<{ key_id: string; value: string; status: string }[]>`
        select key_id, value, status from translations
        where language = ${language} and key_id = any(${writes.map((w) => w.key_id)}::uuid[])
        order by key_id for update`;
      const before = new Map(stored.map((r) => [r.key_id, r]));
      // A value written meanwhile by a person wins: only the version read is replaced (with
      // only_missing, none: nothing existing is), and an approved value never is. Versions come from
      // one sequence (migration 010), so a value created or changed since has one not read here.
      const rows = await tx.sql<{ key_id: string; inserted: boolean }[]>`
        insert into translations (key_id, project_id, language, value, status, source_rev)
        select w.key_id, ${projectId}, ${language}, w.value, ${input.status}, w.source_rev
        from unnest(${writes.map((w) => w.key_id)}::uuid[], ${writes.map((w) => w.value)}::text[], ${writes.map((w) => w.source_rev)}::bigint[]) as w(key_id, value, source_rev)
        join translation_keys k on k.id = w.key_id and k.project_id = ${projectId} and k.deleted_at is null
        order by w.key_id
        on conflict (key_id, language) do update set value = excluded.value, status = excluded.status, updated_at = now(),
          source_rev = ${keptSourceRevSql(tx.sql, 'translations', tx.sql`excluded.value`, tx.sql`excluded.source_rev`)}
          where translations.status <> 'approved' and (translations.key_id, translations.version) in (
            select * from unnest(${read.map((r) => r.key_id)}::uuid[], ${read.map((r) => r.version!)}::bigint[]))
        returning key_id, (xmax = 0) as inserted`;
      const changed = await changedMeanwhile(tx.sql, language, writes, rows);
      const units = rows.filter((r) => paid.has(r.key_id) && before.get(r.key_id)?.value !== machine.get(r.key_id)).length;
      await chargeUnits(tx.sql, { account: locked, units, now: deps.clock.now(), upgradeUrl: deps.config.UPGRADE_URL, dryRun: false });
      // Every existing value this run replaced (only_missing: false) and whose text or status
      // changed: one translation.written each, with the text it replaced, as an import's overwrite
      // records (core/files/import-file.ts), so History lists it and can revert to the translator's
      // text. Values it created are told by the language-wide event below, as an import's are.
      // Recorded before that event (History's `via` pairs them); webhooks gather every
      // translation.* of the window into one translations.changed, so this sends no more deliveries.
      // In key order (the locked rows'), since RETURNING promises none.
      const value = new Map(writes.map((w) => [w.key_id, w.value]));
      const replaced = new Set(rows.filter((r) => !r.inserted).map((r) => r.key_id));
      for (const was of stored) {
        if (!replaced.has(was.key_id)) continue;
        const after = { value: value.get(was.key_id)!, status: input.status };
        if (was.value === after.value && was.status === after.status) continue;
        tx.record({
          type: 'translation.written',
          projectId,
          actor: input.actor,
          entity: { type: 'translation', id: `${was.key_id}/${language}` },
          before: { value: was.value, status: was.status },
          after,
        });
      }
      if (rows.length) {
        // The values it created have no event of their own: their keys are listed here for
        // webhooks' translations.changed (core/webhooks/listed-keys.ts; values_created says whether
        // that is all of them). Their groups are the keys' own, looked up by the dispatcher.
        const created = rows.flatMap((r) => (r.inserted ? [r.key_id] : []));
        tx.record({
          type: 'translation.machine_translated',
          projectId,
          actor: input.actor,
          entity: { type: 'language', id: language },
          after: {
            provider: base.provider,
            status: input.status,
            from_memory: fromMemory.length,
            from_provider: machine.size,
            written: rows.length,
            translation_units: units,
            values_created: created.length,
            key_ids: listedKeyIds(created),
          },
        });
      }
      return { written: rows.length, units, changed };
    });
    for (const r of changed) skipped.push({ key_id: r.key_id, key: r.key, reason: 'changed_meanwhile' });
    return { ...base, dry_run: false, translated: written, from_memory: fromMemory.length, from_provider: machine.size, translation_units: units, skipped, remaining: remaining + unfinished };
  },
);

async function languageStillRegistered(sql: TransactionSql, projectId: string, language: string): Promise<boolean> {
  const [row] = await sql`select 1 from project_languages where project_id = ${projectId} and code = ${language}`;
  return row !== undefined;
}

/**
 * The keys of `writes` the upsert left alone because their value is not the one read: one exists
 * now for a live key (a key deleted meanwhile has no value written and is not reported).
 */
async function changedMeanwhile(sql: TransactionSql, language: string, writes: { key_id: string }[], written: { key_id: string }[]): Promise<{ key_id: string; key: string }[]> {
  const done = new Set(written.map((r) => r.key_id));
  const left = writes.filter((w) => !done.has(w.key_id)).map((w) => w.key_id);
  if (!left.length) return [];
  return sql<{ key_id: string; key: string }[]>`
    select k.id as key_id, k.key from translations t
    join translation_keys k on k.id = t.key_id and k.deleted_at is null
    where t.language = ${language} and t.key_id = any(${left}::uuid[])
    order by k.key`;
}

/**
 * Protects, batches, translates and verifies; returns the good translations by key id, and how many
 * rows were left untranslated because MT_TIME_LIMIT_MS ran out (they count as `remaining`).
 */
async function machineTranslate(
  deps: Pick<Deps, 'translator' | 'log' | 'config'>,
  rows: Candidate[],
  from: string,
  to: string,
  skipped: TranslateResult['skipped'],
  glossary: MachineGlossary,
): Promise<{ translations: Map<string, string>; unfinished: number }> {
  const translator = deps.translator!;
  // Each distinct source text is translated once, however many keys share it.
  const bySource = new Map<string, ReturnType<typeof protect>>();
  for (const r of rows) if (!bySource.has(r.source!)) bySource.set(r.source!, protect(r.source!));
  const segments = [...bySource.values()].flatMap((p) => p.segments);
  // Each segment's note, from the first key of its source text that says something of itself.
  const noteOf = new Map<string, string>();
  for (const r of rows) if (!noteOf.has(r.source!)) {
    const note = keyNote(r, bySource.get(r.source!)!.segments.length);
    if (note !== null) noteOf.set(r.source!, note);
  }
  const notes = [...bySource].flatMap(([text, p]) => p.segments.map(() => noteOf.get(text) ?? null));
  const translated: string[] = [];
  const limit = deps.config.MT_TIME_LIMIT_MS;
  const started = performance.now();
  try {
    for (const texts of batches(segments, batchLimits(translator))) {
      // A later batch starts only while a whole provider call still fits in the time limit: on
      // Lambda the function would otherwise be cut off with the provider's (paid) work lost.
      const entries = glossary.entriesFor(texts);
      const callMs = deps.config.MT_TIMEOUT_MS * (entries.length ? 1 + GLOSSARY_EXTRA_TIMEOUT : 1);
      if (limit > 0 && translated.length > 0 && performance.now() - started + callMs > limit) break;
      const batchNotes = notes.slice(translated.length, translated.length + texts.length);
      const said = {
        ...(entries.length ? { glossary: entries } : {}),
        ...(glossary.avoid.length ? { avoid: glossary.avoid } : {}),
        ...(batchNotes.some((n) => n !== null) ? { notes: batchNotes } : {}),
      };
      translated.push(...(await translator.translate({ texts, from, to, ...said })));
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    deps.log.warn('machine translation failed', { provider: error.provider, status: error.status, error: error.message });
    throw new AppError('upstream', `${error.message}${error.exhausted ? ": the provider's own rate limit or quota; retry later" : ''}. Nothing was written.`, { data: { provider: error.provider, status: error.status } });
  }
  const results = new Map<string, string | null>();
  let at = 0;
  for (const [text, p] of bySource) {
    // A text whose segments were not all translated in time waits for the next call.
    if (at + p.segments.length > translated.length) break;
    const restored = p.restore(translated.slice(at, at + p.segments.length), to);
    at += p.segments.length;
    results.set(text, restored);
  }
  const out = new Map<string, string>();
  let unfinished = 0;
  for (const r of rows) {
    if (!results.has(r.source!)) {
      unfinished++;
      continue;
    }
    const value = results.get(r.source!) ?? null;
    if (value === null) {
      skipped.push({ key_id: r.key_id, key: r.key, reason: 'placeholders_lost' });
      continue;
    }
    const broken = checkTranslation({ text: value, language: to, source: r.source, sourceLanguage: from }).find(
      (w) => w.check === 'icu_syntax' || w.check === 'placeholders' || w.check === 'html_tags',
    );
    if (broken) skipped.push({ key_id: r.key_id, key: r.key, reason: broken.check === 'icu_syntax' ? 'broken_syntax' : 'placeholders_lost' });
    else out.set(r.key_id, value);
  }
  return { translations: out, unfinished };
}

/** A note's most characters: a description is up to 1,000, and a model's context is not the place for all of it. */
export const NOTE_MAX_CHARS = 300;

/**
 * What a key says of its text, for a chat model: its description (shortened to NOTE_MAX_CHARS) and
 * its character limit, which holds for the whole value and so is said only of a value sent as one
 * segment. Null when the key says nothing.
 */
function keyNote(row: Candidate, segments: number): string | null {
  const parts: string[] = [];
  const description = row.description?.trim();
  if (description) {
    const chars = [...description];
    parts.push(chars.length > NOTE_MAX_CHARS ? `${chars.slice(0, NOTE_MAX_CHARS - 1).join('')}…` : description);
  }
  if (row.max_length !== null && segments === 1) parts.push(`At most ${row.max_length} characters.`);
  return parts.length ? parts.join(' ') : null;
}

