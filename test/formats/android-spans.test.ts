// What the Android export writes must compile (aapt2) to the text tms stores, and what the import
// reads must be what aapt2 compiles. aapt2 ends a quoted stretch ("...") at every span tag (<b>,
// <i>, <u>, <a>, <annotation>, <br/>): StringBuilder's StartSpan and EndSpan call
// ResetTextState(), which sets quote_ = false and forgets the last space (frameworks/base tools/
// aapt2 ResourceUtils.cpp); <xliff:g> does not. The export wrapped the whole text, tags included, in
// one pair of quotes when its spaces needed keeping, so spaces inside or after a span collapsed when
// the app was built, and the import kept a quote open across tags. The model below is a direct
// port of aapt2's ResourceParser::FlattenXmlSubtree + StringBuilder::AppendText (spans and xliff:g
// only; an unescaped apostrophe, which aapt2 refuses, is not modelled).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMATS } from '../../core/formats/index.ts';
import { readXml, type XmlElement } from '../../core/formats/xml/read-xml.ts';
import { splitInline } from '../../core/formats/xml/inline-markup.ts';
import { readIcuPlural } from '../../core/formats/plural/icu-plural.ts';
import { value as hostileValue } from './support/arbitraries.ts';
import { wholeNumberFromEnv } from '../support/whole-number-from-env.ts';

const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** The text aapt2 compiles a <string> element to (styling spans dropped, as getString() returns it). */
function aapt2Text(element: XmlElement): string {
  type Node = { kind: 'text'; data: string } | { kind: 'span' | 'untranslatable'; children: Node[] };
  let sawSpan = false;
  const segments: { kind: 'text'; data: string }[] = [];
  const build = (el: XmlElement): Node[] =>
    el.children.flatMap((c): Node[] => {
      if (c.kind === 'comment') return [];
      if (c.kind === 'text') {
        const seg = { kind: 'text' as const, data: c.text };
        segments.push(seg);
        return [seg];
      }
      if (c.name.startsWith('xliff:')) return [{ kind: 'untranslatable', children: build(c) }];
      sawSpan = true;
      return [{ kind: 'span', children: build(c) }];
    });
  // Adjacent text nodes are one segment in aapt2 (the pull parser joins them).
  const tree = build(element);
  // Empty text makes no segment; util::TrimLeadingWhitespace and TrimTrailingWhitespace use
  // isspace(), ASCII whitespace only.
  const nonEmpty = segments.filter((seg) => seg.data !== '');
  if (!sawSpan && nonEmpty.length) {
    nonEmpty[0]!.data = nonEmpty[0]!.data.replace(/^[ \t\n\r\f\v]+/, '');
    nonEmpty[nonEmpty.length - 1]!.data = nonEmpty[nonEmpty.length - 1]!.data.replace(/[ \t\n\r\f\v]+$/, '');
  }
  let out = '';
  let quote = false;
  let lastSpace = false;
  const reset = () => {
    quote = false;
    lastSpace = false;
  };
  const append = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (!quote && ' \t\n\r\f\v'.includes(c)) {
        if (!lastSpace) {
          out += ' ';
          lastSpace = true;
        }
        continue;
      }
      lastSpace = false;
      if (c === '\\') {
        const e = text[++i];
        if (e === undefined) break;
        if (e === 't') out += '\t';
        else if (e === 'n') out += '\n';
        else if (e === 'u') {
          out += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
          i += 4;
        } else out += e;
      } else if (c === '"') quote = !quote;
      else out += c;
    }
  };
  const run = (nodes: Node[]) => {
    for (const n of nodes) {
      if (n.kind === 'text') append(n.data);
      else if (n.kind === 'span') {
        reset();
        run(n.children);
        reset();
      } else run(n.children);
    }
  };
  run(tree);
  return out;
}

const exportAndCompile = (value: string): string => {
  const xml = dec(FORMATS.android.serialize([{ key: 'x', value }], { language: 'de' }));
  const root = readXml(xml);
  const string = root.children.find((c): c is XmlElement => c.kind === 'element' && c.name === 'string');
  if (!string) throw new Error(`no <string> in ${xml}`);
  return aapt2Text(string);
};

/** A stored value as the app shows it: its markup (where the export writes it as markup) left out. */
const withoutTags = (value: string) =>
  splitInline(value)
    .map((p) => ('text' in p ? p.text : ''))
    .join('');

const RUNS = wholeNumberFromEnv('FORMAT_RUNS', 60);

describe('android export: spaces around styling spans, as aapt2 compiles them', () => {
  it('the model agrees with aapt2 on plain strings and spans that need no quotes', () => {
    for (const value of ['Hello <b>world</b>!', '  two  spaces  ', 'Tab\there', "It's \"quoted\"", 'Read <a href="https://example.com">the terms</a> now']) {
      expect(exportAndCompile(value)).toBe(withoutTags(value));
    }
  });

  it('two spaces inside a <b> are kept in the built app', () => {
    const value = 'Summe: <b>12  Artikel</b>';
    expect(exportAndCompile(value)).toBe(withoutTags(value));
  });

  it('two spaces after a </b> are kept in the built app', () => {
    const value = '<b>Hinweis:</b>  siehe unten';
    expect(exportAndCompile(value)).toBe(withoutTags(value));
  });

  it('spaces at either end of a string with a span are kept (aapt2 trims only strings without spans)', () => {
    for (const value of [' <b>x</b> ', '  <b>x</b>', '<i>a</i>  ', 'a <br/> b', '<b>a </b> b']) expect(exportAndCompile(value)).toBe(withoutTags(value));
  });

  it('any value: the built app shows the stored text, and the import reads the export back exactly', () => {
    const plain = hostileValue.filter((v) => readIcuPlural(v) === null);
    fc.assert(
      fc.property(fc.array(fc.oneof(plain, fc.constantFrom(' ', '  ', '<b>', '</b>', '<b> </b>', '<i>  x  </i>', '<br/>', '<xliff:g id="n">  %d </xliff:g>')), { maxLength: 8 }), (parts) => {
        const value = parts.join('');
        const xml = dec(FORMATS.android.serialize([{ key: 'x', value }], { language: 'de' }));
        if (!xml.includes('<string ')) return;
        expect(exportAndCompile(value)).toBe(withoutTags(value));
        expect(FORMATS.android.parse(new TextEncoder().encode(xml), { language: 'de' }).entries[0]?.value).toBe(value);
      }),
      { numRuns: RUNS * 5 },
    );
  });
});

const importAndCompile = (body: string) => {
  const file = `<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2"><string name="x">${body}</string></resources>`;
  const element = readXml(file).children.find((c): c is XmlElement => c.kind === 'element')!;
  const [entry] = FORMATS.android.parse(new TextEncoder().encode(file), { language: 'de' }).entries;
  return { stored: withoutTags(entry?.value ?? ''), built: aapt2Text(element) };
};

describe('android import: quotes end at styling spans, as aapt2 reads them', () => {
  it('a quoted stretch around a <b> keeps only the spaces aapt2 keeps', () => {
    const { stored, built } = importAndCompile('"<b>Summe:</b>  %s"');
    expect(built).toBe('Summe: %s');
    expect(stored).toBe(built);
  });

  it('a quote stays open across <xliff:g>, and spaces at the ends of a string with spans are kept', () => {
    for (const body of ['"a <xliff:g id="n">  b</xliff:g>"', ' <b>x</b> ', '\n  <i>a</i>\n', 'a "" ', '"" a']) {
      const { stored, built } = importAndCompile(body);
      expect(stored, body).toBe(built);
    }
  });

  it('any mix of quotes, spaces, escapes, spans and xliff:g reads as aapt2 compiles it', () => {
    const text = fc.constantFrom('"', ' ', '  ', '\n', '\t', 'a', 'b c', '\\"', '\\n', "\\'", '\\u0041', '&amp;');
    const body: fc.Arbitrary<string> = fc.letrec<{ body: string }>((tie) => ({
      body: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        text,
        fc.array(tie('body'), { maxLength: 5 }).map((parts) => parts.join('')),
        fc.tuple(fc.constantFrom('b', 'i', 'xliff:g'), tie('body')).map(([tag, inner]) => `<${tag}>${inner}</${tag}>`),
        fc.constant('<br/>'),
      ),
    })).body;
    fc.assert(
      fc.property(body, (b) => {
        const { stored, built } = importAndCompile(b);
        expect(stored).toBe(built);
      }),
      { numRuns: RUNS * 5 },
    );
  });
});
