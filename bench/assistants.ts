// The translator's assistants (issue 17), measured as a client sees them: translation memory
// suggestions over an account holding 100,000 approved values, and bulk translation throughput
// against the emulated DeepL protocol (test/support/mt-emulators.ts; the service is started with
// DEEPL_API_URL pointing at it). A business account of its own takes the data, so the standard
// project and the bench account's unit quota are never touched.
import { createHttpClient, type HttpClient } from './http.ts';
import { createBenchProject } from './seed.ts';

export type AssistantRow = {
  name: string;
  detail: string;
  /** The figure, in `unit`. */
  value: number;
  unit: string;
  p50?: number;
  p99?: number;
  target: string;
  met: boolean | null;
  failure?: string;
};
export type AssistantsReport = { rows: AssistantRow[] };

/** Approved values in the account's memory: per language pair, spread over projects of 25,000 keys. */
export const MEMORY_VALUES = 100_000;
const PROJECT_KEYS = 25_000;
const SUGGESTION_QUERIES = 200;
const TRANSLATE_KEYS = 2_000;
/** The neighbour account's texts are englishText(i) from here on: the same distribution, other texts. */
const NEIGHBOUR_OFFSET = 10_000_000;

// Pseudo-English with a product's shape: a 6,000-word vocabulary (common English words first),
// words drawn by Zipf's law, 3 to 8 per text. A tiny vocabulary would make every text share
// trigrams with every other, which real UI strings do not.
const SYLLABLES = 'ba be bi bo ca co da de di do fa fe fi ga ge go ha he hi ja ka ke ki la le li lo ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi wa we ya za ze zo'.split(' ');
const VOCABULARY: string[] = 'the to your a of and in for is on you with this be are not can all new from by at or an it as we will has was'.split(' ');
{
  let s = 7;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  while (VOCABULARY.length < 6000) {
    let word = '';
    for (let i = 1 + Math.floor(next() * 3); i > 0; i--) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    VOCABULARY.push(word + ['', 'n', 's', 'r', 't', 'l'][Math.floor(next() * 6)]);
  }
}
const CUMULATIVE: number[] = [];
VOCABULARY.reduce((sum, _, i) => (CUMULATIVE.push(sum + 1 / (i + 1)), sum + 1 / (i + 1)), 0);

export function englishText(i: number): string {
  let x = ((i + 1) * 2654435761) % 4294967296;
  const next = () => (x = (x * 1664525 + 1013904223) % 4294967296) / 4294967296;
  const words: string[] = [];
  for (let n = 3 + Math.floor(next() * 6); n > 0; n--) {
    const u = next() * CUMULATIVE.at(-1)!;
    let lo = 0;
    let hi = CUMULATIVE.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (CUMULATIVE[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    words.push(VOCABULARY[lo]!);
  }
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

async function project(http: HttpClient, adminToken: string, accountId: string, name: string, languages: string[]): Promise<string> {
  const created = await createBenchProject(http, adminToken, name, accountId);
  for (const code of languages) await http.json('POST', '/v1/languages', 201, { headers: { 'X-API-Key': created.apiKey }, json: { code } });
  return created.apiKey;
}

/** Texts i in [from, to) as approved en/de pairs of the account, in projects of PROJECT_KEYS keys, through imports. */
async function seedMemory(http: HttpClient, adminToken: string, accountId: string, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += PROJECT_KEYS) {
    const end = Math.min(to, start + PROJECT_KEYS);
    const apiKey = await project(http, adminToken, accountId, `memory ${start}`, ['en', 'de']);
    const en: Record<string, string> = {};
    const de: Record<string, string> = {};
    for (let i = start; i < end; i++) {
      en[`k${i}`] = englishText(i);
      de[`k${i}`] = `[de] ${englishText(i)}`;
    }
    await importJson(http, apiKey, 'en', en);
    await importJson(http, apiKey, 'de', de);
  }
}

/** Each key's suggestions asked once, one at a time: p50 and p99 of what a client waits. */
async function suggestionRow(http: HttpClient, apiKey: string, keys: { id: string }[], name: string, detail: string): Promise<AssistantRow> {
  const latencies: number[] = [];
  let found = 0;
  for (const key of keys) {
    const t0 = performance.now();
    const body = await http.json<{ suggestions: unknown[] }>('GET', `/v1/keys/${key.id}/suggestions/de`, 200, { headers: { 'X-API-Key': apiKey } });
    latencies.push(performance.now() - t0);
    if (body.suggestions.length) found++;
  }
  const p50 = round2(median(latencies));
  const p99 = round2(percentile(latencies, 99));
  return { name, detail: `${detail}; ${found} with suggestions`, value: p50, unit: 'ms (p50)', p50, p99, target: 'p99 < 50 ms', met: p99 < 50 };
}

const importJson = (http: HttpClient, apiKey: string, language: string, values: Record<string, string>) =>
  http.json('POST', `/v1/import/${language}?format=json&status=approved`, 200, { headers: { 'X-API-Key': apiKey }, raw: Buffer.from(JSON.stringify(values)) });

export async function measureAssistants(baseUrl: string, adminToken: string, say: (text: string) => void, options: { memoryValues?: number } = {}): Promise<AssistantsReport> {
  const total = options.memoryValues ?? MEMORY_VALUES;
  const http = createHttpClient(baseUrl, 4);
  const rows: AssistantRow[] = [];
  try {
    const admin = { Authorization: `Bearer ${adminToken}` };
    // A business account whose quotas never stop the bench.
    const newAccount = async (name: string) => {
      const { id } = await http.json<{ id: string }>('POST', '/admin/v1/accounts', 201, { headers: admin, json: { name, plan: 'business' } });
      await http.json('PATCH', `/admin/v1/accounts/${id}`, 200, { headers: admin, json: { daily_call_limit: 10_000_000, translation_unit_allowance: 10_000_000 } });
      return id;
    };
    const accountId = await newAccount('tms bench assistants');

    const started = performance.now();
    await seedMemory(http, adminToken, accountId, 0, total);
    say(`assistants: ${total.toLocaleString('en-US')} approved en/de pairs seeded through imports in ${round2((performance.now() - started) / 1000)} s`);

    // Suggestions: keys whose English is a seeded text (exact) or a seeded text with a word changed (fuzzy).
    const askKey = await project(http, adminToken, accountId, 'asking', ['en', 'de']);
    const asked: Record<string, string> = {};
    for (let q = 0; q < SUGGESTION_QUERIES; q++) {
      const i = Math.floor((q * total) / SUGGESTION_QUERIES);
      asked[`q${q}`] = q % 2 === 0 ? englishText(i) : englishText(i).replace(/^\S+/, 'Please');
    }
    await importJson(http, askKey, 'en', asked);
    const keys = (await http.json<{ keys: { id: string }[] }>('GET', '/v1/keys', 200, { headers: { 'X-API-Key': askKey } })).keys;
    const alone = await suggestionRow(http, askKey, keys, 'tm-suggestion', `${keys.length} keys asked one at a time, ${total.toLocaleString('en-US')} approved values in the account`);
    rows.push(alone);

    // The same questions once another account holds as large a memory of the same kind of texts: an
    // account's suggestions must not slow down with other accounts' memory (migration 019).
    await seedMemory(http, adminToken, await newAccount('tms bench assistants, neighbour'), NEIGHBOUR_OFFSET, NEIGHBOUR_OFFSET + total);
    const beside = await suggestionRow(http, askKey, keys, 'tm-suggestion-neighbour', `the same, with another account's ${total.toLocaleString('en-US')} approved values of the same kind in the database; p50 ${alone.p50} ms alone`);
    // Its own target: the neighbour's memory may not cost this account more than noise (p50 within a quarter).
    rows.push({ ...beside, target: 'p50 < 1.25 x alone', met: beside.p50! < 1.25 * alone.p50! });

    // Bulk translation: unique texts (no memory hits), 500 values per call, DeepL's protocol emulated.
    const mtKey = await project(http, adminToken, accountId, 'machine', ['en', 'de']);
    const source: Record<string, string> = {};
    for (let i = 0; i < TRANSLATE_KEYS; i++) source[`m${i}`] = `${englishText(total + i)} ${i} {name} <b>%s</b>`;
    await importJson(http, mtKey, 'en', source);
    const t0 = performance.now();
    let written = 0;
    for (let call = 0; call < 20; call++) {
      const body = await http.json<{ translated: number; remaining: number; provider: string | null }>('POST', '/v1/translate/de', 200, { headers: { 'X-API-Key': mtKey }, json: {} });
      if (body.provider === null) throw new Error('the service has no machine translation provider (DEEPL_API_URL not passed?)');
      written += body.translated;
      if (body.remaining === 0) break;
    }
    const seconds = (performance.now() - t0) / 1000;
    rows.push({
      name: 'translate-missing',
      detail: `${written.toLocaleString('en-US')} values with placeholders, 500 per call, emulated DeepL (batches of 50)`,
      value: Math.round(written / seconds),
      unit: 'values/s',
      target: '-',
      met: null,
    });
  } catch (error) {
    rows.push({ name: 'assistants', detail: '', value: NaN, unit: '', target: '-', met: null, failure: (error as Error).message });
  } finally {
    http.close();
  }
  return { rows };
}
