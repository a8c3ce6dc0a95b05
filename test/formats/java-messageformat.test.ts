// Java's MessageFormat `choice` argument in .properties values, `{0,choice,0#keine|1#eine|1<{0} Notizen}`
// (found by review): ICU has no such argument, so pseudo-localization accented "choice" and its
// limits, and Java then refused the message ("unknown format type"); machine translation got them as
// text too. Its syntax is now kept as a placeholder's (core/translate/protect.ts), its texts changed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { propertiesCodec } from '../../core/formats/codecs/properties.ts';
import { pseudoFile } from '../../core/files/pseudo-localize.ts';
import { protect } from '../../core/translate/protect.ts';
import { formatWithJava, hasJava } from './support/java.ts';

const MESSAGES = {
  'notes.count': '{0,choice,0#keine Notizen|1#eine Notiz|1<{0,number,integer} Notizen}',
  'notes.simple': '{0,choice,0#keine|1#eine|1<mehrere}',
  'notes.sentence': 'Du hast {0,choice,0#keine Datei|1#eine Datei|1<{0} Dateien} in {1}.',
  'notes.limits': '{0,choice,-1#negativ|0#null|0.5≤halb|1<viel}',
  'editor.conflict': "Die Notiz ''{1}'' wurde {0}-mal geändert.",
};

describe('a choice argument', () => {
  it('is translated by its texts: its head, limits and closing brace are placeholders', () => {
    const p = protect(MESSAGES['notes.count']);
    expect(p.segments).toEqual(['<x id="0"/>keine Notizen<x id="1"/>eine Notiz<x id="2"/><x id="3"/> Notizen<x id="4"/>']);
    const upper = p.segments.map((s) => s.replace(/(<x id="\d+"\/>)|\p{Ll}/gu, (m, tag) => tag ?? m.toUpperCase()));
    expect(p.restore(upper, 'de')).toBe('{0,choice,0#KEINE NOTIZEN|1#EINE NOTIZ|1<{0,number,integer} NOTIZEN}');
    // Not a choice: left as it was.
    expect(protect('{0,choice,kaputt}').segments).toEqual([]);
    expect(protect('a choice of {0}').segments).toEqual(['a choice of <x id="0"/>']);
  });

  it.skipIf(!hasJava)('pseudo-localized into a .properties file, is still a message Java formats', () => {
    const { values } = pseudoFile(Object.values(MESSAGES), 'de', 'en-XA');
    const entries = Object.keys(MESSAGES).map((key, i) => ({ key, value: values[i]! }));
    const dir = mkdtempSync(join(tmpdir(), 'tms-messageformat-'));
    try {
      const path = join(dir, 'messages_en_XA.properties');
      writeFileSync(path, propertiesCodec.serialize(entries, { language: 'en-XA' }));
      const formatted = formatWithJava(path);
      for (const [key, text] of Object.entries(formatted)) expect(text, key).not.toMatch(/^ERROR/);
      // Pseudo-localized: the texts accented, the count formatted by Java.
      expect(formatted['notes.count']).toMatch(/^\[3 Ñöţîžéñ/);
      expect(formatted['notes.sentence']).toMatch(/3 Ðåţéîéñ .*x/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
