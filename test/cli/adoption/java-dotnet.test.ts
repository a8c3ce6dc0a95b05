// Java and .NET teams: a Spring Boot project's src/main/resources/messages.properties (the default
// language, here English) beside messages_de.properties, and a .NET project's Resources/Strings.resx
// beside Strings.de.resx, as IntelliJ and Visual Studio write them. Each is pushed, pulled into a
// clean directory (the default language's file through `languagePaths`), and pushed again; Java
// itself reads the pulled .properties files (skipped where no JDK is installed).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, keys, noChange, report, scenario, serveTestApp, values, type Scenario } from './support.ts';
import type { ServedApp } from '../support/served-app.ts';
import { hasJava, readWithJava } from '../../formats/support/java.ts';

const EN_PROPERTIES = `# Notely web app
# Default messages (English)

# Title of the main screen
home.title=Welcome to Notely
# Greeting on the dashboard; {0} is the user's first name
home.greeting=Hello {0}, good to see you!
editor.unsaved=You have unsaved changes. \\
    Do you want to discard them?
editor.conflict=The note ''{0}'' was changed by {1}.
notes.count={count, plural, one {# note} other {# notes}}
errors.path=File not found: C:\\\\Users\\\\{0}
`;

// IntelliJ with "Transparent native-to-ascii conversion" writes \\u escapes; a file edited elsewhere has UTF-8.
const DE_PROPERTIES = `# Notely web app
# Deutsche Texte

# Title of the main screen
home.title=Willkommen bei Notely
# Greeting on the dashboard; {0} is the user's first name
home.greeting=Hallo {0}, sch\\u00f6n, dass du da bist!
editor.unsaved=Du hast ungespeicherte \\u00c4nderungen. \\
    M\\u00f6chtest du sie verwerfen?
editor.conflict=Die Notiz ''{0}'' wurde von {1} geändert.
notes.count={count, plural, one {# Notiz} other {# Notizen}}
errors.path=Datei nicht gefunden: C:\\\\Benutzer\\\\{0}
`;

const RESX_HEADER = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'formats', 'Strings.de.resx'), 'utf8').split('  <data name="Greeting"')[0]!;
const resx = (entries: [string, string, string?][]) =>
  `${RESX_HEADER}${entries
    .map(([name, value, comment]) => `  <data name="${name}" xml:space="preserve">\r\n    <value>${value}</value>\r\n${comment ? `    <comment>${comment}</comment>\r\n` : ''}  </data>\r\n`)
    .join('')}</root>`;
const EN_RESX = resx([
  ['Home.Title', 'Welcome to Notely', 'Title of the main screen'],
  ['Greeting', 'Hello {0}, good to see you!'],
  ['Terms', 'Terms &amp; conditions'],
  ['Help.Text', 'First line\r\nSecond line'],
]);
const DE_RESX = resx([
  ['Home.Title', 'Willkommen bei Notely', 'Title of the main screen'],
  ['Greeting', 'Hallo {0}, schön, dass du da bist!'],
  ['Terms', 'AGB &amp; Datenschutz'],
  ['Help.Text', 'Erste Zeile\r\nZweite Zeile'],
]);

const PROPERTIES_FILES = { 'src/main/resources/messages.properties': EN_PROPERTIES, 'src/main/resources/messages_de.properties': DE_PROPERTIES };
const RESX_FILES = { 'Notely/Resources/Strings.resx': EN_RESX, 'Notely/Resources/Strings.de.resx': DE_RESX };

if (!hasJava) console.log('Java reading pulled .properties skipped: no JDK 11+ `java` on the PATH');

let app: ServedApp;
let java: Scenario;
let dotnet: Scenario;

beforeAll(async () => {
  app = await serveTestApp();
  java = await scenario(
    app,
    [{ path: 'src/main/resources/messages_{language}.properties', format: 'properties', languagePaths: { en: 'src/main/resources/messages.properties' } }],
    PROPERTIES_FILES,
  );
  dotnet = await scenario(app, [{ path: 'Notely/Resources/Strings.{language}.resx', format: 'resx', languagePaths: { en: 'Notely/Resources/Strings.resx' } }], RESX_FILES);
}, 180_000);
afterAll(() => cleanup(app));

describe('Spring Boot messages.properties', () => {
  it('pushes both languages, pulls them back to the same paths, and a second push changes nothing', async () => {
    expect(java.pushEn.code, report(java, PROPERTIES_FILES)).toBe(0);
    expect(java.pushDe.code).toBe(0);
    expect(java.pull.code).toBe(0);
    expect(Object.keys(java.pulled).sort()).toEqual(Object.keys(PROPERTIES_FILES).sort());
    noChange(java.push2);
    noChange(java.push2Overwrite);
    expect(await values(app, java.project, 'de')).toMatchObject({
      'home.greeting': 'Hallo {0}, schön, dass du da bist!',
      'editor.unsaved': 'Du hast ungespeicherte Änderungen. Möchtest du sie verwerfen?',
      'editor.conflict': "Die Notiz ''{0}'' wurde von {1} geändert.",
      'errors.path': 'Datei nicht gefunden: C:\\Benutzer\\{0}',
    });
    const described = (await keys(app, java.project)).find((k) => k.key === 'home.greeting');
    expect(described?.description).toBe("Greeting on the dashboard; {0} is the user's first name");
  });

  it('the pulled file is ASCII, with \\u escapes and the descriptions as comments', () => {
    const de = java.pulled['src/main/resources/messages_de.properties']!.toString('utf8');
    expect(de).toContain('home.greeting=Hallo {0}, sch\\u00F6n, dass du da bist!');
    expect(de).toContain("# Greeting on the dashboard; {0} is the user's first name\nhome.greeting=");
    expect(/^[\x00-\x7f]*$/.test(de)).toBe(true);
  });

  it.skipIf(!hasJava)('Java reads the pulled files to the project\'s values', async () => {
    const paths = ['messages.properties', 'messages_de.properties'].map((f) => join(java.clean, 'src/main/resources', f));
    const read = readWithJava(paths);
    expect(read[paths[0]!]!.bundle).toEqual(await values(app, java.project, 'en'));
    expect(read[paths[1]!]!.bundle).toEqual(await values(app, java.project, 'de'));
    expect(read[paths[1]!]!.properties).toEqual(await values(app, java.project, 'de'));
  });
});

describe('Visual Studio Strings.resx', () => {
  it('pushes both languages, pulls them back to the same paths, and a second push changes nothing', async () => {
    expect(dotnet.pushEn.code, report(dotnet, RESX_FILES)).toBe(0);
    expect(dotnet.pushDe.code).toBe(0);
    expect(dotnet.pull.code).toBe(0);
    expect(Object.keys(dotnet.pulled).sort()).toEqual(Object.keys(RESX_FILES).sort());
    noChange(dotnet.push2);
    noChange(dotnet.push2Overwrite);
    expect(await values(app, dotnet.project, 'de')).toEqual({
      'Home.Title': 'Willkommen bei Notely',
      Greeting: 'Hallo {0}, schön, dass du da bist!',
      Terms: 'AGB & Datenschutz',
      'Help.Text': 'Erste Zeile\nZweite Zeile',
    });
  });

  it("the pulled file keeps Visual Studio's header, so the diff is the entries' own", () => {
    const de = dotnet.pulled['Notely/Resources/Strings.de.resx']!.toString('utf8');
    expect(de.startsWith(RESX_HEADER.replace(/^\uFEFF/, '').replaceAll('\r\n', '\n'))).toBe(true);
    expect(de).toContain('  <data name="Home.Title" xml:space="preserve">\n    <value>Willkommen bei Notely</value>\n    <comment>Title of the main screen</comment>\n  </data>');
  });
});
