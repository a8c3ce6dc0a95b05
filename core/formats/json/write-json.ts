// JSON text with two-space indentation and members in the order given. Objects are Maps because
// a plain object would move integer-like names ("10", "2") to the front and break the key order.

export type JsonOut = string | ReadonlyMap<string, JsonOut>;

function write(value: JsonOut, indent: string, out: string[]): void {
  if (typeof value === 'string') {
    out.push(JSON.stringify(value));
    return;
  }
  if (value.size === 0) {
    out.push('{}');
    return;
  }
  const inner = `${indent}  `;
  out.push('{\n');
  let first = true;
  for (const [name, member] of value) {
    if (!first) out.push(',\n');
    first = false;
    out.push(inner, JSON.stringify(name), ': ');
    write(member, inner, out);
  }
  out.push('\n', indent, '}');
}

export function jsonText(value: JsonOut): string {
  const out: string[] = [];
  write(value, '', out);
  out.push('\n');
  return out.join('');
}
