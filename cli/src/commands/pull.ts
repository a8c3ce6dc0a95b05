// `tms pull`: writes every language's file to its mapped path. A file whose bytes would not change
// is not touched (same bytes, same mtime, no git diff), and the ETag of the local file makes the
// server answer 304 without sending it again. Writes go to a temporary file renamed into place, so
// an interrupted pull never leaves half a file.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathFor, type CliConfig } from '../config-file.ts';
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { etagOf } from '../etag.ts';
import { needsSource } from '../formats.ts';
import { languagesFor } from '../project.ts';
import { usageError } from '../errors.ts';

export const PULL_HELP = `tms pull [--language L]... [--status approved|review|draft|all] [--json]

Writes each language's file (default: every language of the project) to its mapped path, creating
folders. --status picks the values (default approved). Unchanged files are left as they are.`;

const STATUSES = ['approved', 'review', 'draft', 'all'];

export async function pull(ctx: Context, config: CliConfig, client: Client, flags: { language?: string[]; status?: string }) {
  const status = flags.status ?? 'approved';
  if (!STATUSES.includes(status)) throw usageError(`--status must be one of ${STATUSES.join(', ')}`);
  const languages = await languagesFor(client, flags.language);
  const jobs = config.files.flatMap((mapping) => languages.map((language) => ({ mapping, language, path: pathFor(mapping, language) })));

  const results = await ctx.out.progress(
    'pulling',
    jobs.map(({ mapping, language, path }) => async () => {
      const target = resolve(ctx.cwd, path);
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
          await mkdir(dirname(target), { recursive: true });
          const temporary = `${target}.tms-${process.pid}.tmp`;
          await writeFile(temporary, bytes);
          await rename(temporary, target);
          state = local ? 'written' : 'created';
        }
      }
      ctx.out.line(`${path} (${language}, ${mapping.format}): ${state}`);
      return { path, language, format: mapping.format, state };
    }),
  );
  ctx.out.result({ status, files: results });
  return 0;
}
