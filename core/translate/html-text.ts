// Protected texts (protect.ts) sent to a provider in its HTML mode (Google's format=html, Azure's
// textType=html): the <x id="n"/> tags are markup the provider keeps in place, everything else is
// text. Text is escaped on the way out, so that a `&`, `<` or `>` of the value is read as the
// character it is (a literal "&amp;" in a value stays one), and the answer's entities are decoded on
// the way back: Google writes an apostrophe as `&#39;` and a quote as `&quot;` in HTML mode, which
// would otherwise be written into the value ("l&#39;utilisateur").

const X_TAG = /(<x id="\d+"\/>)/;

/** `text`'s characters outside <x/> tags, HTML-escaped; `wrap` may replace each escaped text part. */
export function toHtml(text: string, wrap: (raw: string) => string = escapeHtml): string {
  return text
    .split(X_TAG)
    .map((part, i) => (i % 2 === 1 ? part : wrap(part)))
    .join('');
}

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** For an attribute's value in double quotes. */
export const escapeAttribute = (s: string) => escapeHtml(s).replace(/"/g, '&quot;');

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00A0' };

/**
 * A provider's HTML answer as text: the entities an HTML serializer writes (named: amp, lt, gt, quot,
 * apos, nbsp; numeric, decimal or hex) are decoded, once. The <x/> tags are left as they came (the
 * restore reads them whatever their spelling).
 */
export function fromHtml(html: string): string {
  return html.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED[name] ?? whole;
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}
