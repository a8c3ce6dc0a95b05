// A file that cannot be read, or an entry a format cannot write. `loc` says where, the way the API's
// validation issues do: ['body', 'line', 12], ['body', 'resources', 'string', 3], or a key path
// such as ['body', 'home', 'title']. The import endpoint answers it as a 422 `format_invalid`.

export type FormatLoc = (string | number)[];

export class FormatError extends Error {
  readonly loc: FormatLoc;
  readonly msg: string;

  constructor(loc: FormatLoc, msg: string, options?: { cause?: unknown }) {
    super(msg, options);
    this.name = 'FormatError';
    this.loc = loc;
    this.msg = msg;
  }
}
