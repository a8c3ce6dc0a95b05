// A chat model translating a key reads what the key says of itself (docs/decisions.md, "The glossary
// in machine translation"): POST /v1/translate sends, beside each text, a note from its key, its
// description and its character limit, and the glossary's terms and forbidden words, all in the
// OpenAI chat-completions request the emulator checks (test/support/mt-emulators.ts).
import { describe, expect, it } from 'vitest';
import { withEmulatedMtApp, type StartedApp } from '../support/deepl-test-app.ts';
import { EMULATOR_KEYS, type EmulatorCall, type MtEmulator } from '../support/mt-emulators.ts';
import { NOTE_MAX_CHARS } from '../../core/translate/translate-missing.ts';

let emulator: MtEmulator;
let t: StartedApp;
withEmulatedMtApp(
  (app, emu) => {
    t = app;
    emulator = emu;
  },
  (emu) => ({ OPENAI_MODEL: 'emulated-model', OPENAI_BASE_URL: `${emu.url}/v1`, OPENAI_API_KEY: EMULATOR_KEYS.openai }),
);

async function json(res: Response) {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
}

/** The JSON a chat request carried in its user message. */
const userJson = (call: EmulatorCall) => JSON.parse(call.body.messages.find((m: { role: string }) => m.role === 'user').content);

describe('notes from the keys, to a chat model', () => {
  it("send each text with its key's description and limit, one note a text, and the glossary's say", async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Dashboard', translations: { de: 'Übersicht' } }));
    await json(await t.call(p.apiKey, 'POST', '/v1/glossary', { term: 'Login', forbidden: true, translations: { de: 'Einloggen' } }));
    const key = async (name: string, source: string, extra: Record<string, unknown>) => {
      const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: name, ...extra }));
      await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: source }));
    };
    await key('a.open', 'Open', { description: 'Button that opens the file', max_length: 12 });
    await key('b.status', 'Open dashboard', { description: 'Status of a support ticket' });
    await key('c.plain', 'Save', {});
    await key('d.count', '{n, plural, one {# file} other {# files}}', { description: 'Files in the folder', max_length: 30 });
    await key('e.long', 'Hello', { description: 'x'.repeat(1_000) });
    const before = emulator.calls.length;
    expect(await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}))).toMatchObject({ translated: 5, skipped: [] });
    const sent = emulator.calls.slice(before).map(userJson);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    const noteOf = (text: string) => request.notes[request.texts.indexOf(text)];
    expect(noteOf('Open')).toBe('Button that opens the file At most 12 characters.');
    expect(noteOf('Open dashboard')).toBe('Status of a support ticket');
    expect(noteOf('Save')).toBeNull();
    // A plural goes branch by branch: the limit of the whole value is said of none of them.
    expect(request.texts.filter((x: string) => x.includes('file'))).toHaveLength(2);
    for (const text of request.texts.filter((x: string) => x.includes('file'))) expect(noteOf(text)).toBe('Files in the folder');
    expect([...noteOf('Hello')]).toHaveLength(NOTE_MAX_CHARS);
    expect(noteOf('Hello').endsWith('…')).toBe(true);
    expect(request.notes).toHaveLength(request.texts.length);
    expect(request.glossary).toEqual({ Dashboard: 'Übersicht' });
    expect(request.avoid).toEqual(['Einloggen']);
  });

  it('a key that says nothing sends no notes at all', async () => {
    const p = await t.newProject('team');
    for (const code of ['en', 'de']) await json(await t.call(p.apiKey, 'POST', '/v1/languages', { code }));
    const k = await json(await t.call(p.apiKey, 'POST', '/v1/keys', { key: 'x' }));
    await json(await t.call(p.apiKey, 'PUT', `/v1/keys/${k.id}/translations/en`, { value: 'Save' }));
    const before = emulator.calls.length;
    await json(await t.call(p.apiKey, 'POST', '/v1/translate/de', {}));
    expect(emulator.calls.slice(before).map(userJson)).toEqual([{ from: 'en', to: 'de', texts: ['Save'] }]);
  });
});
