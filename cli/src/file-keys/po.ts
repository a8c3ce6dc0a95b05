// Keys of a gettext PO file: the msgid, or `msgctxt|msgid` with a context; the header (msgid "")
// is no key. Every message counts, fuzzy and untranslated ones too (the server skips those on
// import, but the source file still has them). Obsolete `#~` messages are comments.
import { declaredCharset } from './text.ts';

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', f: '\f', v: '\v', '\\': '\\', '"': '"', "'": "'", '?': '?' };

function unquote(raw: string): string {
  const s = raw.trim();
  if (s.length < 2 || !s.startsWith('"') || !s.endsWith('"')) throw new Error(`expected a quoted string, found ${s.slice(0, 20)}`);
  return s.slice(1, -1).replace(/\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)/g, (_, e: string) => {
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    if (e.length > 1 && e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    const c = ESCAPES[e];
    if (c === undefined) throw new Error(`invalid escape \\${e}`);
    return c;
  });
}

export function poKeys(body: Uint8Array): string[] {
  const text = new TextDecoder(declaredCharset(body), { fatal: true }).decode(body);
  const keys: string[] = [];
  let message: { context?: string; id?: string; done: boolean } | null = null;
  let field: 'msgctxt' | 'msgid' | 'other' = 'other';
  const finish = () => {
    if (message?.id !== undefined && (message.id !== '' || message.context !== undefined)) {
      keys.push(message.context === undefined ? message.id : `${message.context}|${message.id}`);
    }
    message = null;
  };
  for (const raw of text.split('\n')) {
    const s = raw.replace(/\r$/, '').trimStart();
    if (s === '' || s.startsWith('#')) {
      if (message?.done) finish();
      continue;
    }
    if (s.startsWith('"')) {
      if (message && field === 'msgctxt') message.context = (message.context ?? '') + unquote(s);
      else if (message && field === 'msgid') message.id = (message.id ?? '') + unquote(s);
      continue;
    }
    const kw = /^(msgctxt|msgid_plural|msgid|msgstr)(?:\[\d+\])?(?=[\s"])/.exec(s);
    if (!kw) throw new Error(`unexpected '${s.slice(0, 20)}'`);
    const name = kw[1];
    if ((name === 'msgctxt' || name === 'msgid') && (message === null || message.done || (name === 'msgctxt' && message.id !== undefined))) {
      finish();
      message = { done: false };
    }
    const value = unquote(s.slice(kw[0].length));
    if (message === null) continue;
    if (name === 'msgctxt') message.context = value;
    else if (name === 'msgid') message.id = value;
    else if (name === 'msgstr') message.done = true;
    field = name === 'msgctxt' || name === 'msgid' ? name : 'other';
  }
  finish();
  return keys;
}
