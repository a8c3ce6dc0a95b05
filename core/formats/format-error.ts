// A file that cannot be read, or an entry a format cannot write. `loc` says where, the way the API's
// validation issues do: ['body', 'line', 12], ['body', 'resources', 'string', 3], or a key path
// such as ['body', 'home', 'title']. The import endpoint answers it as a 422 `format_invalid`.

export type FormatLoc = (string | number)[];

export class FormatError extends Error {
  readonly loc: FormatLoc;
  readonly msg: string;
  /**
   * Every entry refused, this one first, when a writer checks them all (an Android export of a
   * project whose keys have hyphens names each of them, not only the first).
   */
  readonly all: readonly { loc: FormatLoc; msg: string }[];

  constructor(loc: FormatLoc, msg: string, options?: { cause?: unknown; more?: readonly { loc: FormatLoc; msg: string }[] }) {
    super(msg, options);
    this.name = 'FormatError';
    this.loc = loc;
    this.msg = msg;
    this.all = [{ loc, msg }, ...(options?.more ?? [])];
  }
}

/** Throws the refusals collected while writing, all of them in one FormatError, if there are any. */
export function throwAll(refused: readonly FormatError[]): void {
  const [first, ...more] = refused;
  if (first) throw new FormatError(first.loc, first.msg, { more: more.map((e) => ({ loc: e.loc, msg: e.msg })) });
}
