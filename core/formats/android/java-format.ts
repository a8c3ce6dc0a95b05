// aapt2 refuses a <string> whose text has two or more substitutions when any of them is not
// positional ("%s of %s", "%1$s of %s": a translation that reorders them breaks), unless the
// element says formatted="false". tms does not store the attribute: export derives it from the
// value with aapt2's own rule (util::VerifyJavaStringFormat), so what it writes compiles whenever
// the imported file did. `%%` and `%n` are not substitutions; a conversion letter that only
// Time.format() knows (D F K M W Z k m w y z) marks a date pattern, which aapt2 does not check.
const TIME_CONVERSIONS = new Set(['D', 'F', 'K', 'M', 'W', 'Z', 'k', 'm', 'w', 'y', 'z']);
const FLAG_OR_WIDTH = /[-#+ ,(0-9]/;

/** True when aapt2 would refuse this text in a <string> without formatted="false". */
export function needsFormattedFalse(text: string): boolean {
  let substitutions = 0;
  let nonPositional = false;
  let i = 0;
  while (i < text.length) {
    if (text[i] === '%' && i + 1 < text.length) {
      i++;
      if (text[i] === '%' || text[i] === 'n') {
        i++;
        continue;
      }
      substitutions++;
      const start = i;
      while (i < text.length && text.charAt(i) >= '0' && text.charAt(i) <= '9') i++;
      if (i > start) {
        // Digits not followed by `$` were a width, not an argument index.
        if (i < text.length && text[i] !== '$') nonPositional = true;
      } else if (text[i] === '<') {
        // `%<s` reuses the previous argument: its position moves when a translation reorders.
        nonPositional = true;
        i++;
        if (text[i] === '$') i++;
      } else nonPositional = true;
      while (i < text.length && FLAG_OR_WIDTH.test(text.charAt(i))) i++;
      if (i < text.length && TIME_CONVERSIONS.has(text.charAt(i))) return false;
    }
    if (i < text.length) i++;
  }
  return substitutions > 1 && nonPositional;
}
