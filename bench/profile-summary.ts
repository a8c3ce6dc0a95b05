// Summarises a .cpuprofile (from `npm run bench -- --profile`): where the service spent its CPU,
// by function (self time) and by file, without opening DevTools.
//   npx tsx bench/profile-summary.ts bench/results/profiles/<run>/<file>.cpuprofile [--top 25] [--last <s>] [--skip-last <s>]
// --last keeps only the profile's final seconds: a profile covers the service's whole life, seeding
// included, and the scenarios `--only` picked run at its end. --skip-last drops the final seconds,
// so that `--last 14 --skip-last 8` is the window of one scenario that ran before others.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const { positionals, values } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' }, last: { type: 'string' }, 'skip-last': { type: 'string' } } });
if (!positionals[0]) {
  process.stderr.write('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25] [--last <seconds>] [--skip-last <seconds>]\n');
  process.exit(2);
}
const top = Number(values.top);
if (values.last !== undefined && !(Number(values.last) > 0)) {
  process.stderr.write(`--last takes a number of seconds, got ${values.last}\n`);
  process.exit(2);
}
if (values['skip-last'] !== undefined && !(Number(values['skip-last']) >= 0)) {
  process.stderr.write(`--skip-last takes a number of seconds, got ${values['skip-last']}\n`);
  process.exit(2);
}
const profile = JSON.parse(await readFile(positionals[0], 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<number, number>();
// Sample i was taken at startTime + timeDeltas[0..i]; --last drops those before endTime - last,
// --skip-last those after endTime - skip.
const from = values.last === undefined ? -Infinity : profile.endTime - Number(values.last) * 1e6;
const until = profile.endTime - Number(values['skip-last'] ?? 0) * 1e6;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at >= from && at <= until) selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
// Idle time is not work: percentages are of the busy time.
const idle = profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').reduce((sum, n) => sum + (selfMicros.get(n.id) ?? 0), 0);
for (const node of profile.nodes) if (node.callFrame.functionName === '(idle)') selfMicros.delete(node.id);
const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'node_modules/')
    .replace(/^.*\/(core|functions|bench)\//, '$1/');

const tally = (key: (frame: CallFrame) => string) => {
  const sums = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const k = key(byId.get(id)!.callFrame);
    sums.set(k, (sums.get(k) ?? 0) + micros);
  }
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, top);
};

const print = (title: string, rows: [string, number][]) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, micros] of rows) {
    process.stdout.write(`${((micros / total) * 100).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${name}\n`);
  }
};

process.stdout.write(
  `${positionals[0]}: ${(total / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle, over ${((until - Math.max(from, profile.startTime)) / 1e6).toFixed(1)} s${values.last === undefined && values['skip-last'] === undefined ? '' : ' (a window before the end)'}\n`,
);
print('self time by function', tally((f) => `${f.functionName || '(anonymous)'}  ${shortUrl(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`));
const packageOrFile = (f: CallFrame) => {
  if (!f.url) return f.functionName; // (program), (garbage collector), (idle)
  const short = shortUrl(f.url);
  const match = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(short);
  return match ? `node_modules/${match[1]}` : short;
};
print('self time by package or file', tally(packageOrFile));

// Total time: a function's own time plus its callees' (synchronous stacks only: each await starts a
// new stack). Recursion is counted once.
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const frameKey = (f: CallFrame) => `${f.functionName || '(anonymous)'}  ${shortUrl(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
const inclusive = new Map<string, number>();
for (const [id, micros] of selfMicros) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at)!.callFrame;
    if (!frame.url) continue;
    const key = frameKey(frame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
  }
}
print('total time by function (self + callees)', [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top));
