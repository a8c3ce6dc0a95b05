// The final mark of a sentence behind closing quotes of other languages and bidi marks.
import { describe, expect, it } from 'vitest';
import { checkTranslation } from '../../core/quality/check-translation.ts';

const punctuation = (text: string, source: string, language = 'de') =>
  checkTranslation({ text, source, language, sourceLanguage: 'en' }).filter((w) => w.check === 'punctuation');

describe('punctuation behind closing quotes and bidi marks', () => {
  it('German „…“ and Danish »…« closing quotes are looked through: „Hallo.“ ends with a period', () => {
    expect(punctuation('Sag „Hallo.“', 'Say "Hello."')).toEqual([]);
    expect(punctuation('Tryk på »Gem.«', 'Press "Save."', 'da')).toEqual([]);
    expect(punctuation("Sag ‚Hallo.‘", 'Say "Hello."')).toEqual([]);
    expect(punctuation('Appuyez sur « Enregistrer. »', 'Press "Save."', 'fr')).toEqual([]);
    expect(punctuation('Sag „Hallo“', 'Say "Hello."')).toHaveLength(1);
  });

  it('an RTL value ending with a right-to-left mark after its ؟ ends with a question mark', () => {
    expect(punctuation('هل أنت متأكد؟\u200f', 'Are you sure?', 'ar')).toEqual([]);
    expect(punctuation('\u2067هل أنت متأكد؟\u2069', 'Are you sure?', 'ar')).toEqual([]);
    expect(punctuation('هل أنت متأكد\u200f', 'Are you sure?', 'ar')).toHaveLength(1);
  });
});
