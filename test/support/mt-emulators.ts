// Small emulators of the machine translation providers' real protocols (issue 17): DeepL API v2,
// OpenAI chat completions and LibreTranslate, on one local HTTP server. Each checks what the real
// service checks (authentication, the request's shape, batch limits) and answers in the real
// service's shape. The "translation" is deterministic: known words from a tiny dictionary, other
// words upper-cased, and every <x id="n"/> tag kept where it was, as DeepL's XML handling keeps it.
// DeepL's glossaries (POST /v2/glossaries, DELETE /v2/glossaries/{id}, glossary_id on a translation)
// are kept as DeepL keeps them, and a glossary's phrases are used for its source phrases, as are a
// chat request's "glossary" phrases (an obliging model).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const DICTIONARY: Record<string, Record<string, string>> = {
  de: { hello: 'Hallo', file: 'Datei', files: 'Dateien', save: 'Speichern', welcome: 'Willkommen', no: 'Keine', world: 'Welt' },
  fr: { hello: 'Bonjour', file: 'fichier', files: 'fichiers', save: 'Enregistrer', welcome: 'Bienvenue', no: 'Aucun', world: 'monde' },
};

export function fakeTranslate(text: string, to: string): string {
  const words = DICTIONARY[to.split('-')[0]!.toLowerCase()] ?? {};
  return text
    .split(/(<x\s+id="\d+"\s*\/>)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\p{L}+/gu, (w) => words[w.toLowerCase()] ?? w.toUpperCase())))
    .join('');
}

/** A glossary's source phrases (whole words, any case) translated as its phrases, the rest as fakeTranslate does. */
export function translateWithGlossary(text: string, to: string, entries: readonly (readonly [string, string])[]): string {
  const kept: string[] = [];
  let marked = text;
  for (const [source, target] of [...entries].sort((a, b) => b[0].length - a[0].length)) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${source.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'giu');
    marked = marked.replace(pattern, () => `\u0001${kept.push(target) - 1}\u0001`);
  }
  return fakeTranslate(marked, to).replace(/\u0001(\d+)\u0001/g, (_, i: string) => kept[Number(i)]!);
}

/** DeepL's glossary languages (v2): a pair of two of these; others answer 400. */
const DEEPL_GLOSSARY_LANGUAGES = new Set(['da', 'de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'nb', 'nl', 'pl', 'pt', 'ru', 'sv', 'zh']);

export type EmulatedGlossary = { name: string; source_lang: string; target_lang: string; entries: [string, string][]; creation_time: string };

export type EmulatorCall = { provider: 'deepl' | 'openai' | 'libretranslate'; path: string; method: string; headers: IncomingMessage['headers']; body: any };

export type MtEmulator = {
  url: string;
  calls: EmulatorCall[];
  /** DeepL glossaries that exist now (made and not deleted), by id. */
  glossaries: Map<string, EmulatedGlossary>;
  /** Most glossaries the account keeps (a Free account: 1); past it, a new one is a 456. Default: 1,000. */
  glossaryLimit(n: number): void;
  /** The next `count` requests answer `status` (DeepL's 456 quota, 429, 500...). */
  failNext(status: number, count?: number): void;
  /** The model (or service) drops every <x/> tag from now on: a placeholder lost in translation. */
  dropTags(on: boolean): void;
  /** Every answer from now on comes this many milliseconds late: a slow provider. */
  delay(ms: number): void;
  close(): Promise<void>;
};

export const EMULATOR_KEYS = { deepl: 'emulated-deepl-key:fx', openai: 'sk-emulated', libretranslate: 'emulated-libre-key' };

export async function startMtEmulator(): Promise<MtEmulator> {
  const calls: EmulatorCall[] = [];
  const glossaries = new Map<string, EmulatedGlossary>();
  let made = 0;
  let glossaryMax = 1_000;
  let failures: { status: number; count: number } | null = null;
  let dropping = false;
  let lateBy = 0;
  const out = (text: string, to: string, entries: readonly (readonly [string, string])[] = []) => {
    const t = entries.length ? translateWithGlossary(text, to, entries) : fakeTranslate(text, to);
    return dropping ? t.replace(/<x\s+id="\d+"\s*\/>/g, '') : t;
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: any;
    const raw = Buffer.concat(chunks).toString('utf8');
    try {
      body = (req.method === 'DELETE' || req.method === 'GET') && raw === '' ? null : JSON.parse(raw);
    } catch {
      return send(res, 400, { message: 'Invalid JSON' });
    }
    const path = req.url ?? '';
    const glossaryPath = /^\/v2\/glossaries(?:\/([^/]+))?$/.exec(path);
    const provider = path === '/v2/translate' || glossaryPath ? 'deepl' : path === '/v1/chat/completions' ? 'openai' : path === '/translate' ? 'libretranslate' : null;
    const allowed = glossaryPath ? (glossaryPath[1] ? ['DELETE'] : ['POST', 'GET']) : ['POST'];
    if (!provider || !allowed.includes(req.method ?? '')) return send(res, 404, { message: 'Not found' });
    calls.push({ provider, path, method: req.method ?? 'POST', headers: req.headers, body });
    if (lateBy > 0) await new Promise((resolve) => setTimeout(resolve, lateBy));
    if (failures && failures.count > 0) {
      failures.count--;
      return send(res, failures.status, { message: 'emulated failure' });
    }
    if (glossaryPath) {
      if (glossaryPath[1]) return deleteGlossary(req, res, decodeURIComponent(glossaryPath[1]));
      return req.method === 'GET' ? listGlossaries(req, res) : createGlossary(req, res, body);
    }
    if (provider === 'deepl') return deepl(req, res, body);
    if (provider === 'openai') return openai(req, res, body);
    return libre(res, body);
  });

  function deepl(req: IncomingMessage, res: ServerResponse, body: any) {
    if (req.headers.authorization !== `DeepL-Auth-Key ${EMULATOR_KEYS.deepl}`) return send(res, 403, { message: 'Wrong endpoint or authentication' });
    if (!Array.isArray(body.text) || body.text.length === 0 || body.text.length > 50) return send(res, 400, { message: "Value for 'text' not supported." });
    if (typeof body.target_lang !== 'string' || body.target_lang === 'EN' || body.target_lang === 'PT') return send(res, 400, { message: "Value for 'target_lang' not supported." });
    if (body.tag_handling !== 'xml') return send(res, 400, { message: 'emulator: tags would not be kept without tag_handling=xml' });
    const to = body.target_lang.toLowerCase();
    let entries: [string, string][] = [];
    if (body?.glossary_id !== undefined) {
      const glossary = glossaries.get(String(body.glossary_id));
      if (!glossary) return send(res, 404, { message: 'Glossary not found' });
      if (typeof body.source_lang !== 'string') return send(res, 400, { message: "Use of a glossary requires the 'source_lang' parameter to be specified" });
      if (glossary.source_lang !== body.source_lang.toLowerCase() || glossary.target_lang !== to.split('-')[0]) {
        return send(res, 400, { message: "Language pair of the glossary doesn't match the language pair of the request" });
      }
      entries = glossary.entries;
    }
    send(res, 200, { translations: body.text.map((t: string) => ({ detected_source_language: String(body.source_lang ?? 'EN'), text: out(t, to, entries) })) });
  }

  function createGlossary(req: IncomingMessage, res: ServerResponse, body: any) {
    if (req.headers.authorization !== `DeepL-Auth-Key ${EMULATOR_KEYS.deepl}`) return send(res, 403, { message: 'Wrong endpoint or authentication' });
    const { name, source_lang, target_lang, entries, entries_format } = body ?? {};
    if (typeof name !== 'string' || name === '' || typeof entries !== 'string' || entries_format !== 'tsv') return send(res, 400, { message: 'Missing or invalid argument' });
    const pair = [String(source_lang).toLowerCase(), String(target_lang).toLowerCase()] as const;
    if (!DEEPL_GLOSSARY_LANGUAGES.has(pair[0]) || !DEEPL_GLOSSARY_LANGUAGES.has(pair[1]) || pair[0] === pair[1]) return send(res, 400, { message: 'Unsupported glossary source and target language pair' });
    const parsed: [string, string][] = [];
    for (const line of entries.split(/\r?\n/)) {
      if (line === '') continue;
      const cells = line.split('\t');
      if (cells.length !== 2 || cells.some((c) => c === '' || c !== c.trim())) return send(res, 400, { message: `Invalid glossary entries provided: ${JSON.stringify(line)}` });
      if (parsed.some(([s]) => s === cells[0])) return send(res, 400, { message: `Invalid glossary entries provided: duplicate source ${JSON.stringify(cells[0])}` });
      parsed.push([cells[0]!, cells[1]!]);
    }
    if (parsed.length === 0) return send(res, 400, { message: 'Invalid glossary entries provided: none' });
    if (glossaries.size >= glossaryMax) return send(res, 456, { message: 'Quota exceeded. The maximum amount of glossaries has been reached.' });
    const id = `emulated-glossary-${++made}`;
    const creation_time = new Date().toISOString();
    glossaries.set(id, { name, source_lang: pair[0], target_lang: pair[1], entries: parsed, creation_time });
    send(res, 201, { glossary_id: id, ready: true, name, source_lang: pair[0], target_lang: pair[1], creation_time, entry_count: parsed.length });
  }

  function listGlossaries(req: IncomingMessage, res: ServerResponse) {
    if (req.headers.authorization !== `DeepL-Auth-Key ${EMULATOR_KEYS.deepl}`) return send(res, 403, { message: 'Wrong endpoint or authentication' });
    send(res, 200, {
      glossaries: [...glossaries].map(([glossary_id, g]) => ({ glossary_id, name: g.name, ready: true, source_lang: g.source_lang, target_lang: g.target_lang, creation_time: g.creation_time, entry_count: g.entries.length })),
    });
  }

  function deleteGlossary(req: IncomingMessage, res: ServerResponse, id: string) {
    if (req.headers.authorization !== `DeepL-Auth-Key ${EMULATOR_KEYS.deepl}`) return send(res, 403, { message: 'Wrong endpoint or authentication' });
    if (!glossaries.delete(id)) return send(res, 404, { message: 'Glossary not found' });
    res.writeHead(204);
    res.end();
  }

  function openai(req: IncomingMessage, res: ServerResponse, body: any) {
    if (req.headers.authorization !== `Bearer ${EMULATOR_KEYS.openai}`) return send(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const user = Array.isArray(body.messages) ? body.messages.find((m: any) => m.role === 'user') : undefined;
    let request: any;
    try {
      request = JSON.parse(user?.content);
    } catch {
      return send(res, 400, { error: { message: 'emulator: the user message is not the JSON the adapter promised' } });
    }
    if (!body.model || !Array.isArray(request.texts)) return send(res, 400, { error: { message: 'model and texts required' } });
    const entries = request.glossary && typeof request.glossary === 'object' ? (Object.entries(request.glossary) as [string, string][]) : [];
    const content = JSON.stringify({ translations: request.texts.map((t: string) => out(t, String(request.to), entries)) });
    send(res, 200, {
      id: 'chatcmpl-emulated',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      // Local models often fence their JSON; the adapter must cope.
      choices: [{ index: 0, message: { role: 'assistant', content: '```json\n' + content + '\n```' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }

  function libre(res: ServerResponse, body: any) {
    if (body.api_key !== EMULATOR_KEYS.libretranslate) return send(res, 403, { error: 'Invalid API key' });
    if (body.format !== 'html') return send(res, 400, { error: 'emulator: tags would be translated without format=html' });
    const q = body.q;
    if (typeof q === 'string') return send(res, 200, { translatedText: out(q, body.target) });
    if (!Array.isArray(q)) return send(res, 400, { error: "Invalid request: missing q parameter" });
    send(res, 200, { translatedText: q.map((t: string) => out(t, body.target)) });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    glossaries,
    glossaryLimit(n) {
      glossaryMax = n;
    },
    failNext(status, count = 1) {
      failures = { status, count };
    },
    dropTags(on) {
      dropping = on;
    },
    delay(ms) {
      lateBy = ms;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
