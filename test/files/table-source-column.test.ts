// A spreadsheet for a translator: csv and xlsx exported with `source=en` carry the source text in a
// column beside the translation (key, group, description, en, de), every key with a source text gets
// a row (its translation cell empty where there is none yet), and the sheet the translator filled in
// imports back into de from its de column, the cells still empty skipped (core/formats/table/
// write-table.ts). The xlsx round trip goes through a real tool: openpyxl fills the cells, as a
// translator in a spreadsheet program would (skipped with one line without it).
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/test-app.ts';
import { body, project, type Project } from '../translations/helpers.ts';

const t = useTestApp();
const PYTHON = '/usr/bin/python3';
const hasOpenpyxl = spawnSync(PYTHON, ['-c', 'import openpyxl']).status === 0;
if (!hasOpenpyxl) console.log(`a translator's workbook filled in by openpyxl skipped: ${PYTHON} cannot import openpyxl (Debian: apt install python3-openpyxl)`);
const work = mkdtempSync(join(tmpdir(), 'tms-source-column-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function seeded(): Promise<Project> {
  const p = await project(t, ['en', 'de']);
  const ids = { title: await p.key('home.title', 'home'), cta: await p.key('home.cta', 'home'), bye: await p.key('bye', 'misc') };
  await p.put(ids.title, 'en', 'Welcome', 'approved');
  await p.put(ids.cta, 'en', 'Start, now', 'approved');
  await p.put(ids.bye, 'en', 'Bye', 'approved');
  await p.put(ids.title, 'de', 'Willkommen', 'approved');
  return p;
}
const upload = (p: Project, format: string, file: Uint8Array | string) =>
  t.app.request(`/v1/import/de?format=${format}&status=approved`, { method: 'POST', headers: { 'X-API-Key': p.apiKey, 'Content-Type': 'application/octet-stream' }, body: file });

describe('csv and xlsx with source=', () => {
  it('csv: the source column beside the translation, a row for every source key; the filled-in file imports its new cells only', async () => {
    const p = await seeded();
    const res = await p.get('/v1/export/de?format=csv&source=en');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toBe('key,group,description,en,de\r\nbye,misc,,Bye,\r\nhome.cta,home,,"Start, now",\r\nhome.title,home,,Welcome,Willkommen\r\n');
    // The translator fills in one of the two empty cells.
    const filled = text.replace('home.cta,home,,"Start, now",', 'home.cta,home,,"Start, now",Los geht\'s');
    const imported = await body(await upload(p, 'csv', filled));
    expect(imported).toMatchObject({ keys_created: 0, values_created: 1, values_updated: 0, values_unchanged: 1 });
    expect(imported.warnings).toEqual(['columns ignored: en', '1 row has no text in the de column: skipped (not translated yet)']);
    expect(await body(await p.get('/v1/translations/de'))).toMatchObject({ translations: { 'home.title': 'Willkommen', 'home.cta': "Los geht's" }, count: 2 });
    // The source language's own values are not touched by a de import.
    expect((await body(await p.get('/v1/translations/en'))).translations['home.cta']).toBe('Start, now');
  });

  it('without source, or with the exported language as source, the plain table as before', async () => {
    const p = await seeded();
    const plain = 'key,group,description,value\r\nhome.title,home,,Willkommen\r\n';
    expect(await (await p.get('/v1/export/de?format=csv')).text()).toBe(plain);
    expect(await (await p.get('/v1/export/de?format=csv&source=de')).text()).toBe(plain);
    expect((await p.get('/v1/export/de?format=csv&source=fr')).status).toBe(404);
  });

  it.skipIf(!hasOpenpyxl)('xlsx: openpyxl reads the two columns, a translator fills a cell, and it imports back into de', async () => {
    const p = await seeded();
    const res = await p.get('/v1/export/de?format=xlsx&source=en');
    expect(res.status).toBe(200);
    const path = join(work, 'de.xlsx');
    writeFileSync(path, new Uint8Array(await res.arrayBuffer()));
    const script = join(work, 'fill.py');
    writeFileSync(
      script,
      [
        'import json, sys, openpyxl',
        'wb = openpyxl.load_workbook(sys.argv[1])',
        'ws = wb.active',
        'rows = [[c if c is not None else "" for c in r] for r in ws.iter_rows(values_only=True)]',
        'print(json.dumps({"sheet": ws.title, "rows": rows}))',
        'for r in ws.iter_rows(min_row=2):',
        '    if r[0].value == "bye": r[4].value = "Tschüss"',
        'wb.save(sys.argv[1])',
      ].join('\n'),
    );
    const seen = JSON.parse(execFileSync(PYTHON, [script, path], { encoding: 'utf8' }));
    expect(seen).toEqual({
      sheet: 'de',
      rows: [
        ['key', 'group', 'description', 'en', 'de'],
        ['bye', 'misc', '', 'Bye', ''],
        ['home.cta', 'home', '', 'Start, now', ''],
        ['home.title', 'home', '', 'Welcome', 'Willkommen'],
      ],
    });
    const imported = await body(await upload(p, 'xlsx', new Uint8Array(readFileSync(path))));
    expect(imported).toMatchObject({ values_created: 1, values_unchanged: 1 });
    expect((await body(await p.get('/v1/translations/de'))).translations).toEqual({ 'home.title': 'Willkommen', bye: 'Tschüss' });
  });
});
