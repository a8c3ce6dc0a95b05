// The syntax of gettext PO files: messages of msgctxt, msgid, msgid_plural and msgstr or msgstr[n],
// each a quoted C string continued on following lines, preceded by comments (#. extracted, #,
// flags; translator, reference and previous-msgid comments are read and dropped). Obsolete
// messages (#~) are skipped, with the comments above them; comments a blank line separates from
// the next message are not that message's. Errors name the line.
import { FormatError } from '../format-error.ts';

export type PoMessage = {
  context: string | undefined;
  id: string;
  idPlural: string | undefined;
  /** msgstr, or msgstr[0..n] of a plural message. */
  strings: string[];
  extracted: string[];
  flags: string[];
  line: number;
};

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', f: '\f', v: '\v', '\\': '\\', '"': '"', "'": "'", '?': '?' };

function unquote(raw: string, line: number): string {
  const fail = (msg: string): never => {
    throw new FormatError(['body', 'line', line], msg);
  };
  const s = raw.trim();
  if (s.length < 2 || !s.startsWith('"') || !s.endsWith('"')) fail('expected a string in double quotes');
  let out = '';
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i] ?? '';
    if (c === '"') fail('a double quote inside a string must be escaped as \\"');
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = s[++i] ?? '';
    if (i >= s.length - 1) fail('a string ends with a lone backslash');
    if (e in ESCAPES) out += ESCAPES[e];
    else if (/[0-7]/.test(e)) {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i, i + 3))?.[0] ?? e;
      out += String.fromCharCode(parseInt(oct, 8));
      i += oct.length - 1;
    } else if (e === 'x' && /^[0-9a-fA-F]{1,2}/.test(s.slice(i + 1))) {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1))?.[0] ?? '';
      out += String.fromCharCode(parseInt(hex, 16));
      i += hex.length;
    } else fail(`invalid escape \\${e}`);
  }
  return out;
}

type Field = { name: 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr'; index: number };

export function readPo(text: string): PoMessage[] {
  const messages: PoMessage[] = [];
  const lines = text.split('\n');
  let m: PoMessage | null = null;
  let field: Field | null = null;
  let hasId = false;
  let pending = { extracted: [] as string[], flags: [] as string[], line: 0 };

  const finish = (line: number) => {
    if (m === null) return;
    if (m.strings.length === 0) throw new FormatError(['body', 'line', line], `the message at line ${m.line} has no msgstr`);
    for (let i = 0; i < m.strings.length; i++) {
      if (m.strings[i] === undefined) throw new FormatError(['body', 'line', m.line], `msgstr[${i}] is missing`);
    }
    messages.push(m);
    m = null;
    field = null;
    hasId = false;
  };

  for (let n = 0; n < lines.length; n++) {
    const line = n + 1;
    const s = (lines[n] ?? '').replace(/\r$/, '').trimStart();
    const fail = (msg: string): never => {
      throw new FormatError(['body', 'line', line], msg);
    };
    if (s === '') {
      // Comments belong to the message right below them: those a blank line ends belong to none.
      finish(line);
      pending = { extracted: [], flags: [], line: 0 };
      continue;
    }
    if (s.startsWith('#')) {
      if (m !== null && m.strings.length === 0) fail('a comment between msgid and msgstr');
      finish(line);
      if (s.startsWith('#~')) {
        // An obsolete message takes the comments above it (msgmerge keeps its `#, fuzzy` there).
        pending = { extracted: [], flags: [], line: 0 };
        continue;
      }
      if (pending.line === 0) pending.line = line;
      if (s.startsWith('#.')) pending.extracted.push(s.slice(2).replace(/^ /, ''));
      else if (s.startsWith('#,')) pending.flags.push(...s.slice(2).split(',').map((f) => f.trim()).filter(Boolean));
      continue;
    }
    if (s.startsWith('"')) {
      const f: Field | null = field;
      const msg: PoMessage | null = m;
      if (f === null || msg === null) return fail('a string continuation with no keyword before it');
      const more = unquote(s, line);
      if (f.name === 'msgctxt') msg.context = (msg.context ?? '') + more;
      else if (f.name === 'msgid') msg.id += more;
      else if (f.name === 'msgid_plural') msg.idPlural = (msg.idPlural ?? '') + more;
      else msg.strings[f.index] += more;
      continue;
    }
    const kw = /^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?(?=[\s"])/.exec(s);
    if (!kw) return fail(`unexpected '${s.slice(0, 20)}' (expected msgctxt, msgid, msgid_plural, msgstr or a comment)`);
    const name = kw[1] as Field['name'];
    const index = kw[2] === undefined ? -1 : Number(kw[2]);
    if (index >= 0 && name !== 'msgstr') fail(`${name} takes no index`);
    const value = unquote(s.slice(kw[0].length), line);
    // msgctxt or msgid after a complete message starts the next one.
    if ((name === 'msgctxt' || name === 'msgid') && m !== null && (m as PoMessage).strings.length > 0) finish(line);
    let msg: PoMessage | null = m;
    if (msg === null) {
      if (name !== 'msgctxt' && name !== 'msgid') fail(`${name} before msgid`);
      msg = { context: undefined, id: '', idPlural: undefined, strings: [], extracted: pending.extracted, flags: pending.flags, line: pending.line || line };
      m = msg;
      pending = { extracted: [], flags: [], line: 0 };
    }
    if (name === 'msgctxt') {
      if (msg.context !== undefined || hasId) fail(hasId ? 'msgctxt must come before msgid' : 'msgctxt appears twice in one message');
      msg.context = value;
    } else if (name === 'msgid') {
      if (hasId) fail(`the msgid at line ${msg.line} has no msgstr`);
      hasId = true;
      msg.id = value;
    } else if (name === 'msgid_plural') {
      if (!hasId || msg.idPlural !== undefined || msg.strings.length > 0) fail('msgid_plural must follow msgid, once');
      msg.idPlural = value;
    } else {
      if (!hasId) fail('msgstr must follow msgid');
      if ((index >= 0) !== (msg.idPlural !== undefined)) fail(index >= 0 ? 'msgstr[n] needs a msgid_plural' : 'a message with msgid_plural needs msgstr[0], msgstr[1]...');
      if (index < 0 && msg.strings.length > 0) fail('msgstr appears twice in one message');
      if (index > 5) fail('at most six plural forms (msgstr[0] to msgstr[5])');
      if (index >= 0 && msg.strings[index] !== undefined) fail(`msgstr[${index}] appears twice in one message`);
      if (index >= 0) msg.strings[index] = value;
      else msg.strings.push(value);
    }
    field = { name, index: Math.max(index, 0) };
  }
  finish(lines.length);
  return messages;
}
