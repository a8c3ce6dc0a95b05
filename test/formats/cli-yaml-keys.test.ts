// `tms push --remove-unused` deletes the keys of the pushed groups that the CLI does not find in
// the source files, so the CLI's YAML key reader (cli/src/file-keys/yaml.ts) must name every key
// the server's codec reads. A Rails plural mapping with a form Rails does not read as text (an
// empty `other:`, an unquoted `yes`) is no plural to the server, which imports its text forms as
// keys of their own (`messages.one`); the CLI called it the plural key `messages`, so pushing
// with --remove-unused deleted `messages.one`. The CLI mirrors the server's rule
// (scalarText/psychNonString in core/formats/codecs/yaml.ts).
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats/index.ts';
import { keysOf } from '../../cli/src/file-keys/index.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('cli file keys agree with the yaml codec', () => {
  it('a plural mapping with an empty form: every key the server reads is a key the CLI finds', async () => {
    const file = ['en:', '  messages:', '    one: "1 message"', '    other:', '  title: Inbox', ''].join('\n');
    const server = FORMATS.yaml.parse(enc(file), { language: 'en' }).entries.map((e) => e.key);
    expect(server).toEqual(['messages.one', 'title']);
    const cli = (await keysOf('yaml', enc(file), 'en')).map((k) => k.key);
    expect(cli).toEqual(expect.arrayContaining(server));
  });

  it('a plural mapping with an unquoted yes as a form: the same', async () => {
    const file = ['en:', '  confirm:', '    one: Delete it?', '    other: yes', ''].join('\n');
    const server = FORMATS.yaml.parse(enc(file), { language: 'en' }).entries.map((e) => e.key);
    expect(server).toEqual(['confirm.one']);
    const cli = (await keysOf('yaml', enc(file), 'en')).map((k) => k.key);
    expect(cli).toEqual(expect.arrayContaining(server));
  });

  it('a plural whose forms are all text, quoted yes and numbers included, is one key to both', async () => {
    const file = ['en:', '  confirm:', '    one: "yes"', "    other: '2'", ''].join('\n');
    expect(FORMATS.yaml.parse(enc(file), { language: 'en' }).entries.map((e) => e.key)).toEqual(['confirm']);
    expect((await keysOf('yaml', enc(file), 'en')).map((k) => k.key)).toEqual(['confirm']);
  });
});
