// `tms status`: per language, how many values are draft, in review, approved, missing and outdated;
// whether the cache is built; calls today and translation units this month against their limits.
import type { Client } from '../client.ts';
import type { Context } from '../context.ts';
import { projectLanguages, serverKeys } from '../project.ts';

export const STATUS_HELP = `tms status [--json]

Languages with their counts per status, missing values and outdated ones (written before their
source text last changed), the cache's state, API calls today and translation units used this month
against the allowance.
Common: --api-key KEY (else TMS_API_KEY), --config FILE, --json, --wait-for-quota`;

// A null limit is the unlimited plan's.
type Usage = { calls_today: number; daily_limit: number | null; translation_units_used: number; translation_units_allowance: number | null; cycle_resets_at: string };
const ofLimit = (limit: number | null) => (limit === null ? '(no limit)' : `of ${limit}`);
type CacheStatus = { last_rebuilt_at: string | null; ready: boolean };

/**
 * Keys whose value in the language is outdated (the listing's filter). null from a server older than
 * the filter, which refuses the parameter it does not know (422): shown as "-", not as a failure.
 */
async function outdatedIn(client: Client, language: string): Promise<number | null> {
  const res = await client.request('GET', `/v1/keys?outdated=${encodeURIComponent(language)}`, { accept: [422] });
  return res.status === 422 ? null : ((await res.json()) as { count: number }).count;
}

export async function status(ctx: Context, client: Client) {
  const [{ project, languages }, keys, cache, usage] = await Promise.all([
    projectLanguages(client),
    serverKeys(client),
    client.json<CacheStatus>('GET', '/v1/cache/status'),
    client.json<Usage>('GET', '/v1/usage'),
  ]);
  const rows = [];
  for (const language of languages) {
    // A language without any value answers 404 (the spec's read rule): all of its values are missing.
    const res = await client.request('GET', `/v1/translations/${encodeURIComponent(language)}?status=all`, { accept: [404] });
    const all = res.status === 404 ? { translations: {} } : ((await res.json()) as { translations: Record<string, { status: string }> });
    const counts = { draft: 0, review: 0, approved: 0 };
    for (const { status } of Object.values(all.translations)) counts[status as keyof typeof counts]++;
    const present = counts.draft + counts.review + counts.approved;
    rows.push({ language, ...counts, missing: keys.length - present, outdated: await outdatedIn(client, language) });
  }
  ctx.out.line(`project ${project}: ${keys.length} keys`);
  ctx.out.line(`language  approved  review  draft  missing  outdated`);
  for (const r of rows) {
    const columns = [r.language.padEnd(8), String(r.approved).padStart(8), String(r.review).padStart(6), String(r.draft).padStart(5), String(r.missing).padStart(7), String(r.outdated ?? '-').padStart(8)];
    ctx.out.line(columns.join('  '));
  }
  ctx.out.line(`cache: ${cache.ready ? `built ${cache.last_rebuilt_at}` : 'not built yet (tms publish)'}`);
  ctx.out.line(`API calls today: ${usage.calls_today} ${ofLimit(usage.daily_limit)}`);
  ctx.out.line(`translation units this month: ${usage.translation_units_used} ${ofLimit(usage.translation_units_allowance)} (resets ${usage.cycle_resets_at.slice(0, 10)})`);
  ctx.out.result({ project_id: project, keys: keys.length, languages: rows, cache, usage });
  return 0;
}
