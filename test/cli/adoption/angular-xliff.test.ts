// Angular: src/locale/messages.xlf from `ng extract-i18n` (XLIFF 1.2) and messages.de.xlf; the same in XLIFF 2.0 (--format xlf2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, keys, noChange, report, scenario, serveTestApp, values, type Scenario } from './support.ts';
import type { ServedApp } from '../support/served-app.ts';

const X12_EN = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en-US" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="introductionHeader" datatype="html">
        <source>Hello i18n!</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">4,6</context>
        </context-group>
        <note priority="1" from="description">An introduction header for this sample</note>
        <note priority="1" from="meaning">User welcome</note>
      </trans-unit>
      <trans-unit id="5206857922697139278" datatype="html">
        <source>Updated <x id="INTERPOLATION" equiv-text="{{ minutes }}"/> minutes ago</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">9</context>
        </context-group>
      </trans-unit>
      <trans-unit id="7670372064920373295" datatype="html">
        <source>{VAR_PLURAL, plural, =0 {just now} =1 {one minute ago} other {<x id="INTERPOLATION" equiv-text="{{ minutes }}"/> minutes ago}}</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">12</context>
        </context-group>
      </trans-unit>
      <trans-unit id="4413441084394887658" datatype="html">
        <source>Welcome <x id="START_BOLD_TEXT" ctype="x-b" equiv-text="&lt;b&gt;"/><x id="INTERPOLATION" equiv-text="{{ name }}"/><x id="CLOSE_BOLD_TEXT" ctype="x-b" equiv-text="&lt;/b&gt;"/> &amp; friends</source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">15</context>
        </context-group>
        <note priority="1" from="description">Greeting with the user&apos;s name in bold</note>
      </trans-unit>
    </body>
  </file>
</xliff>
`;

const X12_DE = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en-US" datatype="plaintext" original="ng2.template" target-language="de">
    <body>
      <trans-unit id="introductionHeader" datatype="html">
        <source>Hello i18n!</source>
        <target state="translated">Hallo i18n!</target>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">4,6</context>
        </context-group>
        <note priority="1" from="description">An introduction header for this sample</note>
        <note priority="1" from="meaning">User welcome</note>
      </trans-unit>
      <trans-unit id="5206857922697139278" datatype="html">
        <source>Updated <x id="INTERPOLATION" equiv-text="{{ minutes }}"/> minutes ago</source>
        <target state="translated">Vor <x id="INTERPOLATION" equiv-text="{{ minutes }}"/> Minuten aktualisiert</target>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">9</context>
        </context-group>
      </trans-unit>
      <trans-unit id="7670372064920373295" datatype="html">
        <source>{VAR_PLURAL, plural, =0 {just now} =1 {one minute ago} other {<x id="INTERPOLATION" equiv-text="{{ minutes }}"/> minutes ago}}</source>
        <target state="translated">{VAR_PLURAL, plural, =0 {gerade eben} =1 {vor einer Minute} other {vor <x id="INTERPOLATION" equiv-text="{{ minutes }}"/> Minuten}}</target>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">12</context>
        </context-group>
      </trans-unit>
      <trans-unit id="4413441084394887658" datatype="html">
        <source>Welcome <x id="START_BOLD_TEXT" ctype="x-b" equiv-text="&lt;b&gt;"/><x id="INTERPOLATION" equiv-text="{{ name }}"/><x id="CLOSE_BOLD_TEXT" ctype="x-b" equiv-text="&lt;/b&gt;"/> &amp; friends</source>
        <target state="needs-review-translation">Willkommen <x id="START_BOLD_TEXT" ctype="x-b" equiv-text="&lt;b&gt;"/><x id="INTERPOLATION" equiv-text="{{ name }}"/><x id="CLOSE_BOLD_TEXT" ctype="x-b" equiv-text="&lt;/b&gt;"/> &amp; Freunde</target>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app/app.component.html</context>
          <context context-type="linenumber">15</context>
        </context-group>
        <note priority="1" from="description">Greeting with the user&apos;s name in bold</note>
      </trans-unit>
    </body>
  </file>
</xliff>
`;

const X2_EN = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en-US">
  <file id="ngi18n" original="ng.template">
    <unit id="introductionHeader">
      <notes>
        <note category="location">src/app/app.component.html:4,6</note>
        <note category="description">An introduction header for this sample</note>
        <note category="meaning">User welcome</note>
      </notes>
      <segment>
        <source>Hello i18n!</source>
      </segment>
    </unit>
    <unit id="5206857922697139278">
      <notes>
        <note category="location">src/app/app.component.html:9</note>
      </notes>
      <segment>
        <source>Updated <ph id="0" equiv="INTERPOLATION" disp="{{ minutes }}"/> minutes ago</source>
      </segment>
    </unit>
    <unit id="7670372064920373295">
      <notes>
        <note category="location">src/app/app.component.html:12</note>
      </notes>
      <segment>
        <source>{VAR_PLURAL, plural, =0 {just now} =1 {one minute ago} other {<ph id="0" equiv="INTERPOLATION" disp="{{ minutes }}"/> minutes ago}}</source>
      </segment>
    </unit>
    <unit id="4413441084394887658">
      <notes>
        <note category="location">src/app/app.component.html:15</note>
        <note category="description">Greeting with the user&apos;s name in bold</note>
      </notes>
      <segment>
        <source>Welcome <pc id="0" equivStart="&lt;b&gt;" equivEnd="&lt;/b&gt;" type="fmt" dispStart="&lt;b&gt;" dispEnd="&lt;/b&gt;"><ph id="1" equiv="INTERPOLATION" disp="{{ name }}"/></pc> &amp; friends</source>
      </segment>
    </unit>
  </file>
</xliff>
`;

const X2_DE = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en-US" trgLang="de">
  <file id="ngi18n" original="ng.template">
    <unit id="introductionHeader">
      <notes>
        <note category="location">src/app/app.component.html:4,6</note>
        <note category="description">An introduction header for this sample</note>
        <note category="meaning">User welcome</note>
      </notes>
      <segment state="final">
        <source>Hello i18n!</source>
        <target>Hallo i18n!</target>
      </segment>
    </unit>
    <unit id="5206857922697139278">
      <notes>
        <note category="location">src/app/app.component.html:9</note>
      </notes>
      <segment state="translated">
        <source>Updated <ph id="0" equiv="INTERPOLATION" disp="{{ minutes }}"/> minutes ago</source>
        <target>Vor <ph id="0" equiv="INTERPOLATION" disp="{{ minutes }}"/> Minuten aktualisiert</target>
      </segment>
    </unit>
    <unit id="7670372064920373295">
      <notes>
        <note category="location">src/app/app.component.html:12</note>
      </notes>
      <segment state="translated">
        <source>{VAR_PLURAL, plural, =0 {just now} =1 {one minute ago} other {<ph id="0" equiv="INTERPOLATION" disp="{{ minutes }}"/> minutes ago}}</source>
        <target>{VAR_PLURAL, plural, =0 {gerade eben} =1 {vor einer Minute} other {vor <ph id="0" equiv="INTERPOLATION" disp="{{ minutes }}"/> Minuten}}</target>
      </segment>
    </unit>
    <unit id="4413441084394887658">
      <notes>
        <note category="location">src/app/app.component.html:15</note>
        <note category="description">Greeting with the user&apos;s name in bold</note>
      </notes>
      <segment state="translated">
        <source>Welcome <pc id="0" equivStart="&lt;b&gt;" equivEnd="&lt;/b&gt;" type="fmt" dispStart="&lt;b&gt;" dispEnd="&lt;/b&gt;"><ph id="1" equiv="INTERPOLATION" disp="{{ name }}"/></pc> &amp; friends</source>
        <target>Willkommen <pc id="0" equivStart="&lt;b&gt;" equivEnd="&lt;/b&gt;" type="fmt" dispStart="&lt;b&gt;" dispEnd="&lt;/b&gt;"><ph id="1" equiv="INTERPOLATION" disp="{{ name }}"/></pc> &amp; Freunde</target>
      </segment>
    </unit>
  </file>
</xliff>
`;

const F12 = { 'src/locale/messages.xlf': X12_EN, 'src/locale/messages.de.xlf': X12_DE };
const F2 = { 'src/locale/messages.xlf': X2_EN, 'src/locale/messages.de.xlf': X2_DE };
let app: ServedApp;
let s12: Scenario;
let s2: Scenario;
let s12en: Scenario;

beforeAll(async () => {
  app = await serveTestApp();
  s12 = await scenario(app, [{ path: 'src/locale/messages.{language}.xlf', format: 'xliff', languagePaths: { en: 'src/locale/messages.xlf' } }], F12);
  s2 = await scenario(app, [{ path: 'src/locale/messages.{language}.xlf', format: 'xliff2', languagePaths: { en: 'src/locale/messages.xlf' } }], F2);
  const F12en = { 'src/locale/messages.xlf': X12_EN.replace('en-US', 'en'), 'src/locale/messages.de.xlf': X12_DE.replace('en-US', 'en') };
  s12en = await scenario(app, [{ path: 'src/locale/messages.{language}.xlf', format: 'xliff', languagePaths: { en: 'src/locale/messages.xlf' } }], F12en);
}, 180_000);
afterAll(() => cleanup(app));

describe('Angular XLIFF 1.2', () => {
  it('pushes and pulls', () => {
    expect(s12.pushEn.code).toBe(0);
    expect(s12.pushDe.code).toBe(0);
    expect(s12.pull.code).toBe(0);
  });
  it('second push is a no-op', () => {
    noChange(s12.push2);
    noChange(s12.push2Overwrite);
  });
});
describe('Angular XLIFF 1.2, the source file as ng extract-i18n writes it (source-language="en-US")', () => {
  it('pushing messages.xlf as en imports its sources, saying the file named en-US', () => {
    const file = JSON.parse(s12.pushEn.stdout).files[0];
    expect(file.warnings).toEqual(["the file's source-language is en-US; its sources were imported as en"]);
    expect(file.keys_created).toBe(4);
  });
  it('so the pulled messages.de.xlf has its <source> texts', () => {
    const de = s12.pulled['src/locale/messages.de.xlf']!.toString('utf8');
    expect(de).toContain('<source>Hello i18n!</source>');
  });
  it('with source-language="en" the same files round-trip; the diff is noise (context-groups, meaning notes, state, order)', () => {
    const de = s12en.pulled['src/locale/messages.de.xlf']!.toString('utf8');
    expect(de).toContain('<source>Hello i18n!</source>');
    expect(de).not.toContain('context-group');
    expect(de).not.toContain('from="meaning"');
    expect(de).not.toContain('state=');
    noChange(s12en.push2);
  });
});
describe('Angular XLIFF 2.0, srcLang="en-US"', () => {
  it('pushing messages.xlf as en imports its sources, and the pulled de file has its <source>s', () => {
    expect(JSON.parse(s2.pushEn.stdout).files[0].keys_created).toBe(4);
    expect(s2.pulled['src/locale/messages.de.xlf']!.toString('utf8')).toContain('<source>Hello i18n!</source>');
  });
});
describe('Angular XLIFF 2.0', () => {
  it('pushes and pulls', () => {
    expect(s2.pushEn.code).toBe(0);
    expect(s2.pushDe.code).toBe(0);
    expect(s2.pull.code).toBe(0);
  });
  it('second push is a no-op', () => {
    noChange(s2.push2);
    noChange(s2.push2Overwrite);
  });
});
