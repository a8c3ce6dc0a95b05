// Literal text as ICU MessageFormat source, quoted only where ICU needs it, so that ordinary text
// (`it's`, `l'homme`) stays as written. The rules are ICU's (and @formatjs's) apostrophe mode:
// `{` and `}` (and `#` inside a plural) are syntax and are quoted as `'{'`; an apostrophe starts a
// quotation only before one of `{ } < > ' #`, so it is doubled only there. `following` is the
// first character written after this literal (a `#`, an argument's `{`, or the `}` closing the
// plural option), because a trailing apostrophe depends on it.

const QUOTE_STARTERS = "{}<>'";

export function escapeIcuLiteral(text: string, inPlural: boolean, following = ''): string {
  const special = (c: string | undefined) => c === '{' || c === '}' || (inPlural && c === '#');
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (special(c)) {
      // One quotation for the run of syntax characters, with apostrophes inside it doubled.
      let run = '';
      while (i < text.length && (special(text[i]) || text[i] === "'")) {
        run += text[i] === "'" ? "''" : text[i];
        i++;
      }
      out += `'${run}'`;
    } else if (c === "'") {
      const nextChar = i + 1 < text.length ? (special(text[i + 1]) ? "'" : text[i + 1]) : following;
      const starts = nextChar !== undefined && nextChar !== '' && (QUOTE_STARTERS.includes(nextChar) || (inPlural && nextChar === '#'));
      out += starts ? "''" : "'";
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
