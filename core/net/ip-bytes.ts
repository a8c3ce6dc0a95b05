// IP addresses as bytes, for comparing ranges (webhook targets) and prefixes (failed-auth counting).

export function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** 16 bytes of an IPv6 address (any textual form, with or without a trailing dotted IPv4 part). */
export function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0]!;
  const tail: number[] = [];
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    tail.push(...ipv4Bytes(dotted[1]!));
    text = text.slice(0, -dotted[1]!.length) + '0:0';
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const words = (s: string | undefined) => (s ? s.split(':').filter((w) => w !== '').map((w) => parseInt(w, 16)) : []);
  const left = words(head);
  const right = words(rest);
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  const bytes = groups.flatMap((g) => [(g >> 8) & 0xff, g & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}
