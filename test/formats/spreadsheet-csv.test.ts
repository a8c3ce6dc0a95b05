// CSV as spreadsheets save it: Excel and LibreOffice write a row of delimiters (`,,,`) for every
// formatted but empty row below the data, and a sheet edited by hand has empty rows between
// sections. Those rows are no records; a row with text but no key is an error naming its line.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';
import { FORMATS } from '../../core/formats/index.ts';

const t = useTestApp();
const bytes = (s: string) => new TextEncoder().encode(s);
const parse = (s: string) => FORMATS.csv.parse(bytes(s), { language: 'de' });

describe('CSV rows of empty cells', () => {
  it('are skipped like blank lines, wherever they are and whatever the delimiter', () => {
    expect(parse('\uFEFFkey,group,description,value\r\nhome.title,home,,Willkommen\r\n,,,\r\nhelp,,,Hilfe\r\n,,,\r\n,,,\r\n').entries).toEqual([
      { key: 'home.title', value: 'Willkommen', group: 'home' },
      { key: 'help', value: 'Hilfe' },
    ]);
    expect(parse('sep=;\r\nkey;value\r\na;A\r\n;\r\n').entries).toEqual([{ key: 'a', value: 'A' }]);
    expect(parse('key\tvalue\na\tA\n\t\n').entries).toEqual([{ key: 'a', value: 'A' }]);
    // Quoted empty cells are empty cells too.
    expect(parse('key,value\r\na,A\r\n"",""\r\n').entries).toEqual([{ key: 'a', value: 'A' }]);
  });

  it('a row with a value but no key is refused, naming its line (it was read as a key named "")', () => {
    expect(() => parse('key,value\r\na,A\r\n,orphan\r\n')).toThrow(expect.objectContaining({ loc: ['body', 'line', 3], msg: expect.stringMatching(/no key/) }));
  });

  it('an import of a sheet saved with trailing empty rows applies its rows (200), and one with a keyless row is a 422 that writes nothing', async () => {
    const p = await project(t, ['de']);
    const send = (csv: string) =>
      t.app.request('/v1/import/de?format=csv', { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'text/csv' }, body: bytes(csv) });
    const ok = await send('key,group,description,value\r\nhome.title,home,,Willkommen\r\n,,,\r\n,,,\r\n');
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(await body(ok)).toMatchObject({ keys_created: 1, values_created: 1 });
    const refused = await send('key,group,description,value\r\nnew.key,,,Neu\r\n,,,Waise\r\n');
    expect(refused.status).toBe(422);
    expect((await body(refused)).detail).toEqual([{ loc: ['body', 'line', 3], msg: 'the row has no key (its key cell is empty)', type: 'format_invalid' }]);
    expect((await body(await p.get('/v1/keys'))).keys.map((k: { key: string }) => k.key)).toEqual(['home.title']);
  });
});
