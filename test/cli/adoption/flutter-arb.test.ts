// Flutter gen-l10n: lib/l10n/app_en.arb (the template) and app_de.arb, as a Flutter team has them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, exportFile, keys, noChange, parseJson, report, scenario, serveTestApp, values, type Scenario } from './support.ts';
import type { ServedApp } from '../support/served-app.ts';

const EN = `{
  "@@locale": "en",
  "@@last_modified": "2026-11-20T10:15:30.000Z",
  "appTitle": "Notes",
  "@appTitle": {
    "description": "The title of the application"
  },
  "helloUser": "Hello {userName}!",
  "@helloUser": {
    "description": "Greeting on the home screen",
    "placeholders": {
      "userName": {
        "type": "String",
        "example": "Bob"
      }
    }
  },
  "nNotes": "{count, plural, =0{No notes} =1{One note} other{{count} notes}}",
  "@nNotes": {
    "description": "Number of notes in the list",
    "placeholders": {
      "count": {
        "type": "int",
        "format": "compact"
      }
    }
  },
  "pronoun": "{gender, select, male{He} female{She} other{They}} liked your note",
  "@pronoun": {
    "description": "Who liked a note",
    "placeholders": {
      "gender": {
        "type": "String"
      }
    }
  },
  "lastSaved": "Last saved: {date}",
  "@lastSaved": {
    "description": "When the note was last saved",
    "placeholders": {
      "date": {
        "type": "DateTime",
        "format": "yMMMd"
      }
    }
  },
  "price": "Price: {value}",
  "@price": {
    "placeholders": {
      "value": {
        "type": "double",
        "format": "currency",
        "optionalParameters": {
          "decimalDigits": 2,
          "name": "EUR"
        }
      }
    }
  },
  "quoteHint": "Type '{name}' to confirm",
  "@quoteHint": {
    "description": "Escaped braces with ICU quotes",
    "placeholders": {
      "name": {
        "type": "String"
      }
    }
  },
  "emptyState": "Nothing here yet.\\nTap + to add one.",
  "@emptyState": {
    "description": ""
  }
}
`;

const DE = `{
  "@@locale": "de",
  "appTitle": "Notizen",
  "@appTitle": {
    "description": "The title of the application"
  },
  "helloUser": "Hallo {userName}!",
  "nNotes": "{count, plural, =0{Keine Notizen} =1{Eine Notiz} other{{count} Notizen}}",
  "pronoun": "{gender, select, male{Er} female{Sie} other{Sie}} mag deine Notiz",
  "lastSaved": "Zuletzt gespeichert: {date}",
  "price": "Preis: {value}",
  "quoteHint": "Gib '{name}' zur Bestätigung ein",
  "emptyState": "Noch nichts hier.\\nTippe auf +, um etwas hinzuzufügen."
}
`;

const FILES = { 'lib/l10n/app_en.arb': EN, 'lib/l10n/app_de.arb': DE };
let app: ServedApp;
let s: Scenario;

beforeAll(async () => {
  app = await serveTestApp();
  s = await scenario(app, [{ path: 'lib/l10n/app_{language}.arb', format: 'arb' }], FILES);
}, 120_000);
afterAll(() => cleanup(app));

describe('Flutter ARB', () => {
  it('pushes and pulls', () => {
    expect(s.pushEn.code).toBe(0);
    expect(s.pushDe.code).toBe(0);
    expect(s.pull.code).toBe(0);
  });
  it('second push is a no-op', () => {
    noChange(s.push2);
    noChange(s.push2Overwrite);
  });
  it('diff: the pulled app_de.arb is sorted and gains @key description blocks it never had (noise, not data loss)', () => {
    const de = s.pulled['lib/l10n/app_de.arb']!.toString('utf8');
    expect(de).not.toBe(DE);
    expect(Object.keys(JSON.parse(de))).toEqual(['@@locale', 'appTitle', '@appTitle', 'emptyState', '@emptyState', 'helloUser', '@helloUser', 'lastSaved', '@lastSaved', 'nNotes', '@nNotes', 'price', 'pronoun', '@pronoun', 'quoteHint', '@quoteHint']);
    // Every translation is there, byte for byte as ICU.
    const original = JSON.parse(DE);
    for (const [k, v] of Object.entries(JSON.parse(de))) if (!k.startsWith('@')) expect(v).toBe(original[k]);
  });
  it('documented: the template loses placeholders and @@last_modified only when pulled with --include-source', () => {
    const en = JSON.parse(s.pulled['lib/l10n/app_en.arb']!.toString('utf8'));
    expect(en['@helloUser']).toEqual({ description: 'Greeting on the home screen' });
    expect(en['@@last_modified']).toBeUndefined();
    expect(en['@price']).toBeUndefined();
  });
});
