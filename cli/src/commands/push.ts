// `tms push`: uploads each mapped file that exists, one import per language and mapping, and says
// what changed. --remove-unused then soft-deletes the keys of the pushed groups that the source
// files no longer have (restorable through the admin API).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathFor, type CliConfig } from '../config-file.ts';
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { keysOf } from '../formats.ts';
import { groupOfNewKey, languagesFor, serverKeys, type ServerKey } from '../project.ts';
import { usageError } from '../errors.ts';

export const PUSH_HELP = `tms push [--language L]... [--status draft|review|approved] [--conflict overwrite|keep|fail]
         [--dry-run] [--remove-unused] [--json]

Uploads each mapped file that exists, for every language of the project (or the --language ones).
--status     status of the written values (default: approved: the files a team has are what it ships)
--conflict   overwrite (default), keep existing values, or fail (nothing written) if any would change
--dry-run    say what would change; change nothing
--remove-unused  also delete (soft, restorable) the keys of the pushed groups that the source
             language's files no longer have; listed first in a dry run`;

type ImportAnswer = {
  keys_created: number;
  values_created: number;
  values_updated: number;
  values_unchanged: number;
  translation_units: number;
  warnings: string[];
};

const STATUSES = ['draft', 'review', 'approved'];
const CONFLICTS = ['overwrite', 'keep', 'fail'];

export async function push(
  ctx: Context,
  config: CliConfig,
  client: Client,
  flags: { language?: string[]; status?: string; conflict?: string; 'dry-run'?: boolean; 'remove-unused'?: boolean },
) {
  const status = flags.status ?? 'approved';
  const conflict = flags.conflict ?? 'overwrite';
  if (!STATUSES.includes(status)) throw usageError(`--status must be one of ${STATUSES.join(', ')}`);
  if (!CONFLICTS.includes(conflict)) throw usageError(`--conflict must be one of ${CONFLICTS.join(', ')}`);
  const dryRun = Boolean(flags['dry-run']);
  const languages = await languagesFor(client, flags.language);

  // Every file first: a missing one is skipped, an unreadable one stops the push before any upload.
  const uploads: { language: string; format: string; path: string; body: Buffer }[] = [];
  const skipped: string[] = [];
  for (const mapping of config.files) {
    for (const language of languages) {
      const path = pathFor(mapping, language);
      const body = await readFile(resolve(ctx.cwd, path)).catch(() => null);
      if (body === null) skipped.push(path);
      else uploads.push({ language, format: mapping.format, path, body });
    }
  }

  const unused = flags['remove-unused'] ? await unusedKeys(config, client, uploads) : [];
  if (unused.length) {
    ctx.out.line(`${dryRun ? 'would remove' : 'removing'} ${unused.length} unused key${unused.length === 1 ? '' : 's'}: ${unused.map((k) => k.key).join(', ')}`);
  }

  const results = await ctx.out.progress(
    'pushing',
    uploads.map((u) => async () => {
      const query = new URLSearchParams({ format: u.format, status, conflict, dry_run: String(dryRun) });
      const res = await client.request('POST', `/v1/import/${encodeURIComponent(u.language)}?${query}`, {
        body: u.body,
        headers: { 'Content-Type': 'application/octet-stream' },
      });
      const answer = (await res.json()) as ImportAnswer;
      ctx.out.line(
        `${u.path} (${u.language}, ${u.format}): ${dryRun ? 'would create' : 'created'} ${answer.keys_created} keys, ` +
          `${answer.values_created} values; ${dryRun ? 'would update' : 'updated'} ${answer.values_updated}; ` +
          `unchanged ${answer.values_unchanged}; ${answer.translation_units} translation units`,
      );
      for (const warning of answer.warnings) ctx.out.line(`  warning: ${warning}`);
      return { path: u.path, language: u.language, format: u.format, ...answer };
    }),
  );
  for (const path of skipped) ctx.out.line(`${path}: no file, skipped`);

  if (!dryRun) for (const key of unused) await client.request('DELETE', `/v1/keys/${key.id}`);
  ctx.out.result({ dry_run: dryRun, files: results, skipped, removed: unused.map((k) => ({ id: k.id, key: k.key, group: k.group_name })) });
  return 0;
}

/** Keys of the groups the source files touch that those files no longer have. */
async function unusedKeys(config: CliConfig, client: Client, uploads: { language: string; format: string; path: string; body: Buffer }[]): Promise<ServerKey[]> {
  const sources = uploads.filter((u) => u.language === config.sourceLanguage);
  if (sources.length === 0) throw usageError(`--remove-unused needs the source language's files (${config.sourceLanguage}) in the push`);
  const inFiles = new Set<string>();
  for (const s of sources) {
    try {
      for (const key of await keysOf(s.format, s.body, s.language)) inFiles.add(key);
    } catch (error) {
      throw usageError(`${s.path} cannot be read as ${s.format}: ${(error as Error).message}`);
    }
  }
  const keys = await serverKeys(client);
  const groupOf = new Map(keys.map((k) => [k.key, k.group_name]));
  const pushedGroups = new Set([...inFiles].map((key) => groupOf.get(key) ?? groupOfNewKey(key)));
  return keys.filter((k) => pushedGroups.has(k.group_name) && !inFiles.has(k.key));
}
