// Rails: config/locales/en.yml and de.yml as a Rails app (with rails-i18n-style entries) has them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, keys, noChange, report, scenario, serveTestApp, values, type Scenario } from './support.ts';
import type { ServedApp } from '../support/served-app.ts';

const EN = `# Files in the config/locales directory are used for internationalization and
# are automatically loaded by Rails.

en:
  hello: "Hello %{name}"
  activerecord:
    models:
      note:
        one: Note
        other: Notes
    attributes:
      note:
        title: Title
        body: Body
  notes:
    index:
      title: All notes
      count:
        zero: No notes
        one: One note
        other: "%{count} notes"
    empty_html: "<b>Nothing</b> here yet. <a href=\\"%{url}\\">Create one</a>"
  date:
    formats:
      default: "%Y-%m-%d"
      short: "%b %d"
    day_names: [Sunday, Monday, Tuesday, Wednesday, Thursday, Friday, Saturday]
    order:
      - :year
      - :month
      - :day
  long_text: |
    First line
    Second line
  folded: >
    A long text
    that is folded.
  quoted_single: 'He said: "hi" and it''s fine'
  colon: "Note: important"
  yes_label: "Yes"
  number:
    currency:
      format:
        unit: "$"
        precision: 2
  helpers:
    submit:
      create: "Create %{model}"
`;

const DE = `de:
  hello: "Hallo %{name}"
  activerecord:
    models:
      note:
        one: Notiz
        other: Notizen
    attributes:
      note:
        title: Titel
        body: Inhalt
  notes:
    index:
      title: Alle Notizen
      count:
        zero: Keine Notizen
        one: Eine Notiz
        other: "%{count} Notizen"
    empty_html: "<b>Noch nichts</b> hier. <a href=\\"%{url}\\">Erstelle eine</a>"
  date:
    formats:
      default: "%d.%m.%Y"
      short: "%e. %b"
    day_names: [Sonntag, Montag, Dienstag, Mittwoch, Donnerstag, Freitag, Samstag]
    order:
      - :day
      - :month
      - :year
  long_text: |
    Erste Zeile
    Zweite Zeile
  folded: >
    Ein langer Text,
    der gefaltet wird.
  quoted_single: 'Er sagte: "hallo" und es ist''s gut'
  colon: "Achtung: wichtig"
  yes_label: "Ja"
  number:
    currency:
      format:
        unit: "€"
        precision: 2
  helpers:
    submit:
      create: "%{model} erstellen"
`;

const FILES = { 'config/locales/en.yml': EN, 'config/locales/de.yml': DE };
let app: ServedApp;
let s: Scenario;

beforeAll(async () => {
  app = await serveTestApp();
  s = await scenario(app, [{ path: 'config/locales/{language}.yml', format: 'yaml' }], FILES);
}, 120_000);
afterAll(() => cleanup(app));

describe('Rails YAML', () => {
  it('pushes and pulls', () => {
    expect(s.pushEn.code).toBe(0);
    expect(s.pushDe.code).toBe(0);
    expect(s.pull.code).toBe(0);
  });
  it('second push is a no-op', () => {
    noChange(s.push2);
    noChange(s.push2Overwrite);
  });
  it('diff: comments, lists (day_names, order) and numbers (precision) go; keys are sorted; > becomes | (documented)', () => {
    const de = s.pulled['config/locales/de.yml']!.toString('utf8');
    expect(de).not.toContain('day_names');
    expect(de).not.toContain('order');
    expect(de).not.toContain('precision');
    expect(de).toContain('folded: |\n    Ein langer Text, der gefaltet wird.\n');
    expect(de).toContain('        zero: Keine Notizen\n        one: Eine Notiz\n        other: "%{count} Notizen"\n');
  });
});
