// Output for people and for machines: plain lines (a terminal or a log), or one JSON document with
// --json for CI; a progress bar on a terminal while work takes more than a second.
import cliProgress from 'cli-progress';

export type Output = {
  json: boolean;
  line(text: string): void;
  /** The machine-readable result: printed once, at the end, with --json. */
  result(value: unknown): void;
  /** Runs the steps, with a bar on a terminal once they take over a second. */
  progress<T>(label: string, steps: (() => Promise<T>)[]): Promise<T[]>;
};

export function createOutput(options: { json: boolean; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream }): Output {
  const { json, stdout, stderr } = options;
  return {
    json,
    line: (text) => {
      if (!json) stdout.write(text + '\n');
    },
    result: (value) => {
      if (json) stdout.write(JSON.stringify(value, null, 2) + '\n');
    },
    async progress<T>(label: string, steps: (() => Promise<T>)[]): Promise<T[]> {
      const results: T[] = [];
      let bar: cliProgress.SingleBar | undefined;
      // Only a terminal gets a bar, and only once the work has lasted a second.
      const timer = stderr.isTTY && !json
        ? setTimeout(() => {
            bar = new cliProgress.SingleBar({ format: `${label} [{bar}] {value}/{total}`, stream: stderr, clearOnComplete: true }, cliProgress.Presets.shades_classic);
            bar.start(steps.length, results.length);
          }, 1000)
        : undefined;
      try {
        for (const step of steps) {
          results.push(await step());
          bar?.update(results.length);
        }
      } finally {
        clearTimeout(timer);
        bar?.stop();
      }
      return results;
    },
  };
}
