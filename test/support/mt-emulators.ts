// Small emulators of the machine translation providers' real protocols (issue 17): DeepL API v2,
// OpenAI chat completions and LibreTranslate, on one local HTTP server. Each checks what the real
// service checks (authentication, the request's shape, batch limits) and answers in the real
// service's shape. The "translation" is deterministic: known words from a tiny dictionary, other
// words upper-cased, and every <x id="n"/> tag kept where it was, as DeepL's XML handling keeps it.
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

export type EmulatorCall = { provider: 'deepl' | 'openai' | 'libretranslate'; headers: IncomingMessage['headers']; body: any };

export type MtEmulator = {
  url: string;
  calls: EmulatorCall[];
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
  let failures: { status: number; count: number } | null = null;
  let dropping = false;
  let lateBy = 0;
  const out = (text: string, to: string) => {
    const t = fakeTranslate(text, to);
    return dropping ? t.replace(/<x\s+id="\d+"\s*\/>/g, '') : t;
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { message: 'Invalid JSON' });
    }
    const provider = req.url === '/v2/translate' ? 'deepl' : req.url === '/v1/chat/completions' ? 'openai' : req.url === '/translate' ? 'libretranslate' : null;
    if (!provider || req.method !== 'POST') return send(res, 404, { message: 'Not found' });
    calls.push({ provider, headers: req.headers, body });
    if (lateBy > 0) await new Promise((resolve) => setTimeout(resolve, lateBy));
    if (failures && failures.count > 0) {
      failures.count--;
      return send(res, failures.status, { message: 'emulated failure' });
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
    send(res, 200, { translations: body.text.map((t: string) => ({ detected_source_language: String(body.source_lang ?? 'EN'), text: out(t, to) })) });
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
    const content = JSON.stringify({ translations: request.texts.map((t: string) => out(t, String(request.to))) });
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
