// Which keys `tms push --remove-unused` deletes, decided on the client from the source files' keys,
// the server's keys and the server's own count of what it read in each file.
import { describe, expect, it } from 'vitest';
import { unusedKeys, type ImportAnswer } from '../../cli/src/commands/push.ts';

const key = (k: string, group: string) => ({ id: `id-${k}`, key: k, group_name: group });
const SERVER = [key('home.title', 'home'), key('home.old', 'home'), key('menu.open', 'menu'), key('other.x', 'other'), key('loose', 'Default')];
const answer = (read: number, created = 0): ImportAnswer => ({ keys_created: created, values_created: read, values_updated: 0, values_unchanged: 0, translation_units: 0, warnings: [] });

describe('unusedKeys', () => {
  it('keys of the groups the files touch that the files do not have; other groups stay', () => {
    const sources = [{ path: 'en.json', keys: [{ key: 'home.title' }, { key: 'menu.open' }], answer: answer(2) }];
    expect(unusedKeys(sources, SERVER, true).map((k) => k.key)).toEqual(['home.old']);
  });

  it('a dry run places the keys it would create by name, or by the csv group column', () => {
    const byName = [{ path: 'en.json', keys: [{ key: 'home.title' }, { key: 'brand.new' }], answer: answer(2, 1) }];
    expect(unusedKeys(byName, SERVER, false).map((k) => k.key)).toEqual(['home.old']);
    const newInDefault = [{ path: 'en.csv', keys: [{ key: 'home.title' }, { key: 'fresh', group: 'Default' }], answer: answer(2, 1) }];
    expect(unusedKeys(newInDefault, SERVER, false).map((k) => k.key)).toEqual(['home.old', 'loose']);
    // After the push the server knows the new key's group: a name the CLI guessed plays no part.
    expect(unusedKeys([{ path: 'en.json', keys: [{ key: 'home.title' }, { key: 'ghost.key' }], answer: answer(1) }], SERVER, true).map((k) => k.key)).toEqual(['home.old']);
  });

  it('removes nothing when the server read more keys in a file than the CLI recognised there', () => {
    const missed = [{ path: 'en.json', keys: [{ key: 'home.title' }], answer: answer(2) }];
    expect(() => unusedKeys(missed, SERVER, true)).toThrow(/the server read 2 keys in en\.json, but the CLI recognised only 1 of them.*nothing was removed/);
    expect(() => unusedKeys([{ path: 'en.json', keys: [{ key: 'home.title' }], answer: answer(3, 1) }], SERVER, false)).toThrow(/nothing was removed/);
  });
});
