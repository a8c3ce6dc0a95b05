// GET /v1/keys?search= (and the portal editor's search, the same keyFilterSql) is documented as a
// case-insensitive substring match. Postgres lower() alone is not case folding: it left ß, the Greek
// final sigma and NFD/NFC spellings apart: both sides are folded the same way (migration 023).
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project } from '../translations/helpers.ts';

const t = useTestApp();

async function found(value: string, query: string, language = 'de'): Promise<string[]> {
  const p = await project(t, [language]);
  const id = await p.key('k.one');
  await p.put(id, language, value);
  const res = await p.get(`/v1/keys?search=${encodeURIComponent(query)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await body(res)).keys as { key: string }[]).map((k) => k.key);
}

describe('search folds case and normalization the way people type', () => {
  it('a search typed in NFC (every browser and keyboard) finds a value stored in NFD (a macOS file)', async () => {
    expect(await found('Le café est prêt'.normalize('NFD'), 'café'.normalize('NFC'), 'fr')).toEqual(['k.one']);
  });

  it('STRASSE finds Straße (ß case-folds to ss)', async () => {
    expect(await found('Hauptstraße 5', 'STRASSE')).toEqual(['k.one']);
  });

  it('a lower-case Greek word with its final sigma finds the same word written in capitals', async () => {
    expect(await found('ΚΛΕΙΣΙΜΟ ΟΔΟΣ', 'οδος', 'el')).toEqual(['k.one']);
  });
});
