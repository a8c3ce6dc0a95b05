// Test knobs from the environment (how many random runs, which seed). A value that is not a whole
// number stops the run with its name: `Number('ten')` is NaN, a loop of NaN runs draws nothing, and
// the test would pass having tested nothing.
export function wholeNumberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\s*\d+\s*$/.test(raw)) throw new Error(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  return Number(raw);
}
