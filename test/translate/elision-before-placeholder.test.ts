// French and Italian elide before a placeholder: "Edit {item}" goes out as "Edit <x id="0"/>" and comes
// back as "Modifier l'<x id="0"/>". Restored verbatim that is "Modifier l'{item}", in which ICU's
// apostrophe quotes the argument away (the quality check then refused it as placeholders_lost). The
// apostrophe is doubled when the source is ICU: "Modifier l''{item}", a literal apostrophe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from '@formatjs/icu-messageformat-parser';
import { protect } from '../../core/translate/protect.ts';
import { checkTranslation } from '../../core/quality/check-translation.ts';
import { startTestApp, type TestApp, type TestProject } from '../support/test-app.ts';

// A "translation" that only elides, as DeepL does into French and Italian.
const elide = (text: string) => text.replace(/^Edit /, "Modifier l'").replace(/^Open /, "Ouvrir l'").replace(/^Of /, "dell'");
const machine = (value: string, to = 'fr') => {
  const p = protect(value);
  return p.restore(p.segments.map(elide), to);
};
// What the value says once formatted: literal text, and each argument as {name}.
const formatted = (value: string) =>
  parse(value, { ignoreTag: true, requiresOtherClause: true })
    .map((el) => (el.type === 0 ? el.value : 'value' in el ? `{${el.value}}` : '?'))
    .join('');

describe('protect(): an apostrophe the translator put before a restored ICU token', () => {
  it("is doubled before an argument, so that it formats as a literal apostrophe and the argument stays", () => {
    const fr = machine('Edit {item}')!;
    expect(fr).toBe("Modifier l''{item}");
    expect(formatted(fr)).toBe("Modifier l'{item}");
    expect(checkTranslation({ text: fr, language: 'fr', source: 'Edit {item}', sourceLanguage: 'en' }).filter((w) => w.check === 'placeholders' || w.check === 'icu_syntax')).toEqual([]);
    expect(machine('Of {name}', 'it')).toBe("dell''{name}");
  });

  it("is doubled before a plural's # and before a nested select", () => {
    const plural = machine('{n, plural, one {Edit # file} other {Edit # files}}')!;
    expect(plural).toContain("Modifier l''# file");
    expect(() => parse(plural, { requiresOtherClause: true })).not.toThrow();
    const select = machine('Open {kind, select, file {file} other {item}}')!;
    expect(select.startsWith("Ouvrir l''{kind, select,")).toBe(true);
    expect(formatted(select)).toBe("Ouvrir l'{kind}");
  });

  it('is doubled before a tag too (formatjs quotes < and >), keeping the argument inside it', () => {
    const fr = machine('Edit <b>{item}</b>')!;
    expect(fr).toBe("Modifier l''<b>{item}</b>");
    expect(formatted(fr)).toBe("Modifier l'<b>{item}</b>");
  });

  it('is left alone when already doubled, when the source quoted the token itself, and when the source is not ICU', () => {
    const p = protect('Edit {item}');
    expect(p.restore(["Modifier l''<x id=\"0\"/>"], 'fr')).toBe("Modifier l''{item}");
    // The source's own quoting is meant: '{literal}' stays literal text.
    const quoted = protect("Press '{key}' for {action}");
    expect(quoted.restore(['Appuyez sur \'<x id="0"/>\' pour <x id="1"/>'], 'fr')).toBe("Appuyez sur '{key}' pour {action}");
    // i18next and printf have no apostrophe quoting: nothing to escape.
    expect(machine('Edit {{item}}')).toBe("Modifier l'{{item}}");
    expect(machine('Edit %s')).toBe("Modifier l'%s");
    // A typographic apostrophe is no ICU syntax.
    expect(protect('Edit {item}').restore(['Modifier l’<x id="0"/>'], 'fr')).toBe('Modifier l’{item}');
  });
});

describe('POST /v1/translate/{language}: elision before a placeholder (DeepL)', () => {
  let server: Server;
  let dl: TestApp & { close(): Promise<void> };

  beforeAll(async () => {
    // DeepL's /v2/translate shape; the "translation" only elides.
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ translations: (body.text as string[]).map((t) => ({ detected_source_language: 'EN', text: elide(t) })) }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dl = await startTestApp({ env: { DEEPL_API_KEY: 'k:fx', DEEPL_API_URL: url } });
  });
  afterAll(async () => {
    await dl?.close();
    server?.close();
  });

  async function project(target: string): Promise<TestProject> {
    const p = await dl.newProject('team');
    for (const code of ['en', target]) expect((await dl.call(p.apiKey, 'POST', '/v1/languages', { code })).status).toBe(201);
    return p;
  }

  it("\"Edit {item}\" -> \"Modifier l'<x/>\" is written as \"Modifier l''{item}\", not skipped as placeholders_lost", async () => {
    const p = await project('fr');
    const k = (await (await dl.call(p.apiKey, 'POST', '/v1/keys', { key: 'edit' })).json()) as { id: string };
    expect((await dl.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: 'Edit {item}', status: 'approved' })).status).toBe(200);
    const res = await dl.call(p.apiKey, 'POST', '/v1/translate/fr', {});
    expect(res.status).toBe(200);
    const body = (await res.json()) as { skipped: unknown[]; translated: number };
    expect(body.skipped).toEqual([]);
    expect(body.translated).toBe(1);
    const now = (await (await dl.call(p.apiKey, 'GET', `/v1/keys/${k.id}/translations/fr`)).json()) as { value: string };
    expect(now.value).toBe("Modifier l''{item}");
    expect(formatted(now.value)).toBe("Modifier l'{item}");
  });
});
