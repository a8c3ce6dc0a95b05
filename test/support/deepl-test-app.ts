// A test file whose app translates through an emulated provider (test/support/mt-emulators.ts):
// both started before its tests, closed after. DeepL by default; any provider by its settings.
import { afterAll, beforeAll } from 'vitest';
import { EMULATOR_KEYS, startMtEmulator, type MtEmulator } from './mt-emulators.ts';
import { startTestApp, type TestApp } from './test-app.ts';

export type StartedApp = TestApp & { close(): Promise<void> };

/**
 * Registers the start and the close; `started` receives both once they run; `providerEnv`: the
 * settings that point the app at the emulator (one provider's).
 */
export function withEmulatedMtApp(started: (app: StartedApp, emulator: MtEmulator) => void, providerEnv: (emulator: MtEmulator) => Record<string, string>): void {
  let app: StartedApp | undefined;
  let emulator: MtEmulator | undefined;
  beforeAll(async () => {
    emulator = await startMtEmulator();
    app = await startTestApp({ env: providerEnv(emulator) });
    started(app, emulator);
  });
  afterAll(async () => {
    await app?.close();
    await emulator?.close();
  });
}

/** DeepL through the emulator; `env`: the app's other settings. */
export function withDeeplTestApp(started: (app: StartedApp, emulator: MtEmulator) => void, env: Record<string, string> = {}): void {
  withEmulatedMtApp(started, (emulator) => ({ ...env, DEEPL_API_KEY: EMULATOR_KEYS.deepl, DEEPL_API_URL: emulator.url }));
}
