// The FormatError a codec's parse (or serialize) throws, for the codecs' tests: anything else
// thrown, or nothing, fails the test.
import { FormatError } from '../../../core/formats/format-error.ts';

export function refusalOf(run: () => unknown): FormatError {
  try {
    run();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('expected a FormatError, and nothing was thrown');
}
