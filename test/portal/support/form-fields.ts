// What a browser would send back from a portal page's forms, read from the page's HTML: tests post
// these as they are, or with the fields a user changed.

/** The text of an attribute or a textarea, entities decoded. */
export const decode = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/**
 * The inputs with a value (hidden and text) and the textareas of the first form of `html` posting to
 * `action`; with `selects`, each select's selected option too.
 */
export function formFields(html: string, action: string, options: { selects?: boolean } = {}): Record<string, string> {
  const escaped = action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const form = new RegExp(`<form[^>]*action="${escaped}"[^>]*>([^]*?)</form>`).exec(html)?.[1];
  if (!form) throw new Error(`no form posting to ${action}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of form.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[name!] = decode(value!);
  for (const [, name, value] of form.matchAll(/<textarea[^>]*name="([^"]+)"[^>]*>([^]*?)<\/textarea>/g)) fields[name!] = decode(value!);
  if (options.selects) {
    for (const [, name, body] of form.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([^]*?)<\/select>/g)) {
      const selected = /<option value="([^"]*)"[^>]*selected/.exec(body!);
      if (selected) fields[name!] = selected[1]!;
    }
  }
  return fields;
}

/**
 * The fields a browser sends with the editor's bulk form when `keyIds` are ticked: the form's own
 * inputs, every input tied to it by form="bulk" (ticked checkboxes only), and the chosen action.
 */
export function bulkFields(html: string, keyIds: readonly string[], action: string): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  const add = (name: string, value: string) => (fields[name] ??= []).push(decode(value));
  const inner = /<form[^>]*id="bulk"[^>]*>([^]*?)<\/form>/.exec(html)![1]!;
  for (const [tag] of inner.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    const value = /value="([^"]*)"/.exec(tag)?.[1] ?? '';
    if (name) add(name, value);
  }
  for (const [tag] of html.matchAll(/<input[^>]*form="bulk"[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    const value = /value="([^"]*)"/.exec(tag)?.[1] ?? '';
    if (!name) continue;
    if (/type="checkbox"/.test(tag) && !keyIds.includes(decode(value))) continue;
    add(name, value);
  }
  fields.action = [action];
  return fields;
}
