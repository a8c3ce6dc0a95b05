// `tms pull`: writes every language's file to its mapped path. A file whose bytes would not change
// is not touched (same bytes, same mtime, no git diff), and the ETag of the local file makes the
// server answer 304 without sending it again. Writes go to a temporary file renamed into place, so
// an interrupted pull never leaves half a file.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathFor, type LoadedConfig } from '../config-file.ts';
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { etagOf } from '../etag.ts';
import { needsSource } from '../formats.ts';
import { languagesFor } from '../project.ts';
import { CliError, EXIT, usageError } from '../errors.ts';

export const PULL_HELP = `tms pull [--language L]... [--status approved|review|draft|all] [--json]

Writes each language's file (default: every language of the project) to its mapped path, creating
folders, through a temporary file renamed into place. Unchanged files are left as they are (same
bytes, same mtime); the local file's ETag spares the download.
--language L   only this language (repeatable)
--status S     which values: approved (default), review, draft or all
Common: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --wait-for-quota`;

const STATUSES = ['approved', 'review', 'draft', 'all'];

export async function pull(ctx: Context, config: LoadedConfig, client: Client, flags: { language?: string[]; status?: string }) {
  const status = flags.status ?? 'approved';
  if (!STATUSES.includes(status)) throw usageError(`--status must be one of ${STATUSES.join(', ')}`);
  const languages = await languagesFor(client, flags.language);
  const jobs = config.files.flatMap((mapping) => languages.map((language) => ({ mapping, language, path: pathFor(mapping, language) })));

  const results = await ctx.out.progress(
    'pulling',
    jobs.map(({ mapping, language, path }) => async () => {
      const target = resolve(config.root, path);
      const local = await readFile(target).catch(() => null);
      const query = new URLSearchParams({ format: mapping.format, status });
      if (needsSource(mapping.format)) query.set('source', config.sourceLanguage);
      const res = await client.request('GET', `/v1/export/${encodeURIComponent(language)}?${query}`, {
        headers: local ? { 'If-None-Match': etagOf(local) } : {},
      });
      let state: 'unchanged' | 'written' | 'created';
      if (res.status === 304) state = 'unchanged';
      else {
        const bytes = new Uint8Array(await res.arrayBuffer());
        if (local && Buffer.compare(local, bytes) === 0) state = 'unchanged';
        else {
          const temporary = `${target}.tms-${process.pid}.tmp`;
          try {
            await mkdir(dirname(target), { recursive: true });
            await writeFile(temporary, bytes);
            await rename(temporary, target);
          } catch (error) {
            await rm(temporary, { force: true });
            throw new CliError(`cannot write ${path}: ${(error as Error).message}`, EXIT.failed);
          }
          state = local ? 'written' : 'created';
        }
      }
      ctx.out.line(`${path} (${language}, ${mapping.format}): ${state}`);
      // downloaded: false when the server answered 304 to the local file's ETag.
      return { path, language, format: mapping.format, state, downloaded: res.status !== 304 };
    }),
  );
  ctx.out.result({ status, files: results });
  return 0;
}
