// `tms push --remove-unused --dry-run` places a key it would create in the group the server will
// give it (core/files/import-file.ts groupOf: the prefix before the first '.', when it is a group
// name: Unicode letters included). The CLI's copy (cli/src/project.ts groupOfNewKey) allowed ASCII
// only, so a new key `über.neu` was placed in Default: the dry run listed Default's keys for removal
// that the real push keeps, and left out the über keys the real push deletes.
import { describe, expect, it } from 'vitest';
import { unusedKeys, type ImportAnswer } from '../../cli/src/commands/push.ts';
import { groupOfNewKey } from '../../cli/src/project.ts';
import { isGroupName } from '../../core/validation.ts';

const key = (k: string, group: string) => ({ id: `id-${k}`, key: k, group_name: group });
const SERVER = [key('home.title', 'home'), key('home.old', 'home'), key('loose', 'Default'), key('über.alt', 'über')];
const answer = (read: number, created = 0): ImportAnswer => ({ keys_created: created, values_created: read, values_updated: 0, values_unchanged: 0, translation_units: 0, warnings: [] });

describe('the CLI places a new key in the group the server gives it', () => {
  it('groupOfNewKey agrees with the server for non-ASCII group prefixes', () => {
    for (const prefix of ['über', 'главная', '設定', 'हिन्दी']) {
      expect(isGroupName(prefix)).toBe(true);
      expect(groupOfNewKey(`${prefix}.title`)).toBe(prefix);
    }
  });

  it('a dry run of --remove-unused lists what the real push removes when a new key has a non-ASCII group prefix', () => {
    const sources = [{ path: 'en.json', keys: [{ key: 'home.title' }, { key: 'über.neu' }], answer: answer(2, 1) }];
    // The real push (afterPush: the server placed über.neu in group über) removes home.old and über.alt.
    const afterPush = [...SERVER, key('über.neu', 'über')];
    expect(unusedKeys(sources, afterPush, true).map((k) => k.key)).toEqual(['home.old', 'über.alt']);
    // Its dry run announces the same keys (it listed `loose`, of Default, instead of über.alt).
    expect(unusedKeys(sources, SERVER, false).map((k) => k.key)).toEqual(['home.old', 'über.alt']);
  });
});
