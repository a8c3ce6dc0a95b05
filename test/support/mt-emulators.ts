// Small emulators of the machine translation providers' real protocols (issue 17): DeepL API v2,
// OpenAI chat completions, LibreTranslate, Google Cloud Translation Basic (v2) and Azure AI
// Translator (v3), on one local HTTP server. Each checks what the real
// service checks (authentication, the request's shape, batch limits) and answers in the real
// service's shape. The "translation" is deterministic: known words from a tiny dictionary, other
// words upper-cased, and every <x id="n"/> tag kept where it was, as DeepL's XML handling keeps it.
// DeepL's glossaries (POST /v2/glossaries, DELETE /v2/glossaries/{id}, glossary_id on a translation)
// are kept as DeepL keeps them, and a glossary's phrases are used for its source phrases, as are a
// chat request's "glossary" phrases (an obliging model), as are Azure's dynamic-dictionary entries.
// Google and Azure read their texts as HTML (format=html, textType=html): entities are decoded, and
// the answer is serialized as they serialize it (Google writes `'` as `&#39;` and `"` as `&quot;`).
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

export type EmulatorCall = {
  provider: 'deepl' | 'openai' | 'libretranslate' | 'google' | 'azure';
  /** The request's path, without its query string. */
  path: string;
  /** Its query parameters (Google's key, Azure's from, to, textType). */
  query: Record<string, string>;
  method: string;
  headers: IncomingMessage['headers'];
  body: any;
};

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

export const EMULATOR_KEYS = { deepl: 'emulated-deepl-key:fx', openai: 'sk-emulated', libretranslate: 'emulated-libre-key', google: 'AIzaEmulatedGoogleKey', azure: 'emulated-azure-key' };

/** The emulated Azure resource is regional: its requests must name this region (Ocp-Apim-Subscription-Region). */
export const EMULATOR_AZURE_REGION = 'westeurope';

/** Google's documented limits of a Basic request: 128 text segments, 100K bytes (cloud.google.com/translate/quotas). */
export const GOOGLE_LIMITS = { segments: 128, bytes: 100_000 };
/** Azure's documented limits of a Translate request: 1,000 elements, 50,000 characters in all and in one. */
export const AZURE_LIMITS = { elements: 1_000, characters: 50_000 };

/** Codes Google does not take (its own are zh-CN, zh-TW, pt, pt-PT, he or iw, no...): a request naming one is a 400. */
const GOOGLE_REFUSED = new Set(['zh-hans', 'zh-hant', 'zh-hk', 'pt-br', 'nb', 'de-de', 'en-us', 'en-gb']);
/** Codes Azure does not take (its own are zh-Hans, zh-Hant, pt, pt-pt, nb, sr-Cyrl...): a request naming one is a 400. */
const AZURE_REFUSED = new Set(['zh', 'zh-cn', 'zh-tw', 'pt-br', 'no', 'sr', 'iw', 'de-de', 'en-us']);

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
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname;
    const query = Object.fromEntries(url.searchParams);
    const glossaryPath = /^\/v2\/glossaries(?:\/([^/]+))?$/.exec(path);
    const provider =
      path === '/v2/translate' || glossaryPath
        ? 'deepl'
        : path === '/v1/chat/completions'
          ? 'openai'
          : path === '/language/translate/v2'
            ? 'google'
            : path === '/translate' && url.searchParams.has('api-version')
              ? 'azure'
              : path === '/translate'
                ? 'libretranslate'
                : null;
    const allowed = glossaryPath ? (glossaryPath[1] ? ['DELETE'] : ['POST', 'GET']) : ['POST'];
    if (!provider || !allowed.includes(req.method ?? '')) return send(res, 404, { message: 'Not found' });
    calls.push({ provider, path, query, method: req.method ?? 'POST', headers: req.headers, body });
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
    if (provider === 'google') return google(res, query, body);
    if (provider === 'azure') return azure(req, res, query, body);
    return libre(res, body);
  });

  // Google's errors: {"error": {"code", "message", "errors": [{message, domain, reason}], "status"}}.
  const googleError = (res: ServerResponse, code: number, message: string, status: string, reason: string, details?: unknown[]) =>
    send(res, code, { error: { code, message, errors: [{ message, domain: 'global', reason }], status, ...(details ? { details } : {}) } });

  function google(res: ServerResponse, query: Record<string, string>, body: any) {
    if (query['key'] === undefined) return googleError(res, 403, 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.', 'PERMISSION_DENIED', 'forbidden');
    if (query['key'] !== EMULATOR_KEYS.google) {
      return googleError(res, 400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT', 'badRequest', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]);
    }
    const q: unknown[] = body?.q === undefined ? [] : Array.isArray(body.q) ? body.q : [body.q];
    if (q.length === 0 || q.some((t) => typeof t !== 'string')) return googleError(res, 400, 'Required Text', 'INVALID_ARGUMENT', 'required');
    if (q.length > GOOGLE_LIMITS.segments) return googleError(res, 400, 'Too many text segments', 'INVALID_ARGUMENT', 'invalid');
    if (q.reduce((n: number, t) => n + Buffer.byteLength(t as string), 0) > GOOGLE_LIMITS.bytes) return googleError(res, 400, 'Text too long', 'INVALID_ARGUMENT', 'invalid');
    if (typeof body.target !== 'string' || GOOGLE_REFUSED.has(body.target.toLowerCase()) || (body.source !== undefined && GOOGLE_REFUSED.has(String(body.source).toLowerCase()))) {
      return googleError(res, 400, 'Invalid Value', 'INVALID_ARGUMENT', 'invalid');
    }
    if (body.format !== 'html') return googleError(res, 400, 'emulator: tags would be translated without format=html', 'INVALID_ARGUMENT', 'invalid');
    const serialize = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    send(res, 200, { data: { translations: q.map((t) => ({ translatedText: htmlTranslate(t as string, body.target, [], serialize) })) } });
  }

  const azureError = (res: ServerResponse, status: number, code: number, message: string) => send(res, status, { error: { code, message } });

  function azure(req: IncomingMessage, res: ServerResponse, query: Record<string, string>, body: any) {
    if (req.headers['ocp-apim-subscription-key'] !== EMULATOR_KEYS.azure || req.headers['ocp-apim-subscription-region'] !== EMULATOR_AZURE_REGION) {
      return azureError(res, 401, 401000, 'The request is not authorized because credentials are missing or invalid.');
    }
    if (query['api-version'] !== '3.0') return azureError(res, 400, 400021, 'The API version parameter is missing or invalid.');
    const to = query['to'];
    if (!to || AZURE_REFUSED.has(to.toLowerCase())) return azureError(res, 400, 400036, 'The target language is not valid.');
    const from = query['from'];
    if (from !== undefined && AZURE_REFUSED.has(from.toLowerCase())) return azureError(res, 400, 400035, 'The source language is not valid.');
    if (query['textType'] !== 'html') return azureError(res, 400, 400071, 'emulator: tags would be translated without textType=html');
    if (!Array.isArray(body) || body.length === 0 || body.some((e: any) => typeof e?.Text !== 'string')) return azureError(res, 400, 400074, 'The body of the request is not valid JSON.');
    if (body.length > AZURE_LIMITS.elements) return azureError(res, 400, 400072, 'The array of input text has too many elements.');
    if (body.some((e: any) => e.Text.length > AZURE_LIMITS.characters)) return azureError(res, 400, 400050, 'The input text is too long.');
    if (body.reduce((n: number, e: any) => n + e.Text.length, 0) > AZURE_LIMITS.characters) return azureError(res, 400, 400077, 'The maximum request size has been exceeded.');
    const serialize = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const out = [];
    for (const { Text } of body as { Text: string }[]) {
      // The dynamic dictionary: its phrase is used as written; it needs `from` and English on one side.
      const entries: [string, string][] = [];
      const marked = Text.replace(/<mstrans:dictionary translation="([^"]*)">([\s\S]*?)<\/mstrans:dictionary>/g, (_m, translation: string) => {
        entries.push([`\u0002${entries.length}\u0002`, decodeEntities(translation)]);
        return `\u0002${entries.length - 1}\u0002`;
      });
      if (entries.length && (!from || (from.split('-')[0] !== 'en' && to.split('-')[0] !== 'en'))) {
        return azureError(res, 400, 400000, 'emulator: the dynamic dictionary needs from= and English on one side');
      }
      const translated = htmlTranslate(marked, to, [], serialize).replace(/\u0002(\d+)\u0002/g, (_m, i: string) => serialize(entries[Number(i)]![1]));
      out.push({ translations: [{ text: translated, to }] });
    }
    send(res, 200, out);
  }

  /** An HTML text translated: <x/> tags kept, the text between decoded, translated and serialized again. */
  function htmlTranslate(html: string, to: string, entries: readonly (readonly [string, string])[], serialize: (s: string) => string): string {
    const text = html.split(/(<x\s+id="\d+"\s*\/>)/).map((part, i) => (i % 2 === 1 ? part : decodeEntities(part))).join('');
    return out(text, to, entries)
      .split(/(<x\s+id="\d+"\s*\/>)/)
      .map((part, i) => (i % 2 === 1 ? part : serialize(part)))
      .join('');
  }

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

function decodeEntities(s: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00A0' };
  return s.replace(/&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));/gi, (whole, dec?: string, hex?: string, name?: string) =>
    name !== undefined ? (named[name] ?? whole) : String.fromCodePoint(dec !== undefined ? Number(dec) : parseInt(hex!, 16)),
  );
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
