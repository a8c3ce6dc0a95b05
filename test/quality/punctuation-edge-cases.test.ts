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

describe('final marks of other scripts', () => {
  it("Greek's question mark U+037E (as well as ;) is a question mark", () => {
    expect(punctuation('Είστε σίγουροι\u037e', 'Are you sure?', 'el')).toEqual([]);
    expect(punctuation('Είστε σίγουροι;', 'Are you sure?', 'el')).toEqual([]);
    expect(punctuation('Είστε σίγουροι\u037e', 'Saved.', 'el')).toHaveLength(1);
  });

  it('Armenian full stop U+0589, Tibetan shad U+0F0D and halfwidth ｡ U+FF61 are periods', () => {
    expect(punctuation('Պահպանված է\u0589', 'Saved.', 'hy')).toEqual([]);
    expect(punctuation('ཉར་ཚགས་བྱས་ཟིན\u0f0d', 'Saved.', 'bo')).toEqual([]);
    expect(punctuation('保存しました\uff61', 'Saved.', 'ja')).toEqual([]);
    expect(punctuation('Պահպանված է\u0589', 'Are you sure?', 'hy')).toHaveLength(1);
  });

  it('Ethiopic question mark U+1367 is a question mark (and ። still a period)', () => {
    expect(punctuation('እርግጠኛ ነዎት\u1367', 'Are you sure?', 'am')).toEqual([]);
    expect(punctuation('ተቀምጧል።', 'Saved.', 'am')).toEqual([]);
    expect(punctuation('እርግጠኛ ነዎት\u1367', 'Saved.', 'am')).toHaveLength(1);
  });
});
