// Text shortened for display must be cut between characters, never inside a UTF-16 surrogate pair:
// half an emoji is an unpaired surrogate, which the UTF-8 page shows as U+FFFD (TextEncoder replaces
// it), or which JSON.stringify writes as the literal escape text "\ud83d".
import { describe, expect, it } from 'vitest';
import { summarizeChange, plain } from '../../functions/portal/views/activity-words.ts';
import { FORMATS } from '../../core/formats/index.ts';

describe('clipped text keeps whole characters', () => {
  it('Activity: a key description clipped to 120 characters does not end in half an emoji', () => {
    // 118 letters, then emoji: the cut at UTF-16 unit 119 falls between the two halves of the second emoji.
    const description = `${'a'.repeat(118)}😀😀😀`;
    const words = plain(summarizeChange({ type: 'key.created', actor_type: 'user', actor_id: 'u', actor_email: 'a@b.c', entity_type: 'key', entity_id: 'k', before: null, after: { group_name: 'home', description } }));
    expect(words.isWellFormed(), JSON.stringify(words.slice(-8))).toBe(true);
    // And what the page sends: no U+FFFD once encoded as UTF-8.
    expect(new TextDecoder().decode(new TextEncoder().encode(words))).not.toContain('\uFFFD');
  });

  it('import warning naming a skipped PO msgid (line break in it) shows its emoji, not the escape text \\ud83d', () => {
    const msgid = `${'x'.repeat(59)}🎉 party\\nsecond line`; // the 60-unit cut lands inside 🎉
    const po = `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "${msgid}"\nmsgstr "Fest"\n\nmsgid "ok"\nmsgstr "gut"\n`;
    const parsed = FORMATS.po.parse(new TextEncoder().encode(po), { language: 'de' });
    expect(parsed.warnings.length).toBe(1);
    expect(parsed.warnings[0]).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
  });
});
