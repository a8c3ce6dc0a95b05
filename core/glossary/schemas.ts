// A project's glossary: terms and how each is said in the project's languages (migration 036).
// docs/decisions.md, "Glossary".
import * as v from 'valibot';
import { labelText, nfc, storableText, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';
import { canonicalLanguageCode } from '../languages/language-code.ts';
import { Cursor } from '../keys/key-cursor.ts';

export const TERM_MAX_CHARS = 200;
export const TERM_DESCRIPTION_MAX_CHARS = 1_000;
/** A project's glossary holds its product's vocabulary, not a dictionary (and the editor matches every term against each page). */
export const TERMS_PER_PROJECT_MAX = 10_000;
export const TERMS_LIST_LIMIT_MAX = 500;

/**
 * U+FFFE and U+FFFF are no characters (Unicode's noncharacters, never text): XML cannot hold them, so
 * a term or translation with one would make the glossary's TBX export a file no tool reads.
 */
export const noNoncharacters = (field: string) => v.check((s: string) => !/[\uFFFE\uFFFF]/.test(s), `${field} must not contain U+FFFE or U+FFFF, which are not characters`);

// In NFC before its length is checked: the limit is on what is stored, and NFC can lengthen a
// text (U+0958 is two code points in NFC, U+1D160 three): a 200-character term would otherwise pass
// here and break the database's check (a 5xx; found by review).
const Term = v.pipe(v.string('term must be a string'), v.transform(nfc), labelText('term', TERM_MAX_CHARS), noNoncharacters('term'));
/**
 * A description: text with its line breaks and tabs. A vertical tab or form feed (PowerPoint's and
 * Word's line break, pasted) is a line break; other control characters are refused: XML cannot hold
 * them, and the TBX export would have to drop them (the term then read back as changed).
 */
export const TermDescription = v.pipe(
  v.string('description must be a string'),
  v.transform((s) => s.replace(/[\u000B\u000C]/g, '\n')),
  v.trim(),
  storableText('description', TERM_DESCRIPTION_MAX_CHARS),
  v.check((s) => !/[\u0000-\u0008\u000E-\u001F\u007F]/.test(s), 'description must not contain control characters (line breaks and tabs are kept)'),
);
const Description = TermDescription;
const TermText = v.pipe(labelText('translation', TERM_MAX_CHARS), noNoncharacters('translation'));

/**
 * `{"de": "Übersicht", "fr": null}`: a language's translation, or null to remove it (PATCH). Codes
 * in any casing (canonicalized by the use case, as everywhere a code enters).
 */
const Translations = (allowNull: boolean) =>
  v.pipe(
    // An array is an object to valibot's record (and would pass as {}): refused first.
    v.unknown(),
    v.check((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'translations must be an object of language codes and texts'),
    v.record(
      v.pipe(v.string(), v.check((s) => canonicalLanguageCode(s) !== null, 'translations are keyed by language codes such as de or pt-BR')),
      allowNull ? v.nullable(TermText) : TermText,
      'translations must be an object of language codes and texts',
    ),
    v.check((r) => Object.keys(r).length <= 100, 'translations name at most 100 languages'),
  );

const CreateTermFields = v.strictObject({
  term: Term,
  description: v.optional(Description, ''),
  case_sensitive: v.optional(v.boolean('case_sensitive must be true or false'), false),
  translatable: v.optional(v.boolean('translatable must be true or false'), true),
  forbidden: v.optional(v.boolean('forbidden must be true or false'), false),
  translations: v.optional(Translations(false), {}),
});
export const CreateTermInput = CreateTermFields;

export const UpdateTermInput = v.pipe(
  v.strictObject({
    term: v.optional(Term),
    description: v.optional(Description),
    case_sensitive: v.optional(v.boolean('case_sensitive must be true or false')),
    translatable: v.optional(v.boolean('translatable must be true or false')),
    forbidden: v.optional(v.boolean('forbidden must be true or false')),
    /** Merged into the term's: a language named gets its text, or loses it with null; others stay. */
    translations: v.optional(Translations(true)),
  }),
  v.check((o) => Object.keys(o).length > 0, 'Nothing to change: send term, description, case_sensitive, translatable, forbidden or translations'),
);

const Limit = v.pipe(v.number(), v.integer('limit must be an integer'), v.minValue(1, 'limit must be 1 to 500'), v.maxValue(TERMS_LIST_LIMIT_MAX, 'limit must be 1 to 500'));

/** GET /v1/glossary's query (unknown parameters refused, as the key listing's: a misspelt filter is not "every term"). */
export const ListTermsQuery = v.strictObject({
  q: v.optional(v.pipe(v.string('q must be given once'), storableText('q', TERM_MAX_CHARS, 1))),
  key_id: v.optional(v.pipe(v.string('key_id must be given once'), Uuid)),
  limit: v.optional(v.pipe(v.string('limit must be given once'), v.regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 500'), v.transform(Number), Limit)),
  cursor: v.optional(Cursor),
});

export const ListTermsCommand = v.pipe(
  v.object({
    ...InProject,
    /** Terms whose spelling, or a translation, contains this (case folded). */
    q: v.optional(v.pipe(v.string(), storableText('q', TERM_MAX_CHARS, 1))),
    /** The terms found in this live key's source text (the editor's hints): all of them, no page. */
    keyId: v.optional(Uuid),
    limit: v.optional(Limit),
    cursor: v.optional(Cursor),
  }),
  v.forward(
    v.check((c) => c.keyId === undefined || (c.q === undefined && c.limit === undefined && c.cursor === undefined), 'key_id lists the terms found in one key\'s source text: it takes no q, limit or cursor'),
    ['keyId'],
  ),
);
export const TermCommand = v.object({ ...InProject, termId: Uuid });
export const DeleteTermCommand = v.object({ ...WriteInProject, termId: Uuid });
export const CreateTermCommand = v.object({ ...WriteInProject, ...CreateTermFields.entries });
export const UpdateTermCommand = v.pipe(
  v.object({ ...WriteInProject, termId: Uuid, ...UpdateTermInput.entries }),
  v.check((o) => ['term', 'description', 'case_sensitive', 'translatable', 'forbidden', 'translations'].some((f) => (o as Record<string, unknown>)[f] !== undefined), 'Nothing to change: send term, description, case_sensitive, translatable, forbidden or translations'),
);

export const GlossaryTerm = v.object({
  id: Uuid,
  term: v.string(),
  description: v.string(),
  /** Found only as written ("Apple" the brand, not "apple" the fruit); otherwise in any case. */
  case_sensitive: v.boolean(),
  /** false: kept as written in every language (a brand, a product name). */
  translatable: v.boolean(),
  /**
   * true: a word not to use. The term must not appear in the source language's values, nor its
   * translation in a language's values (the quality check forbidden_terms); with translatable false,
   * the term as written in no language's values (a competitor's name).
   */
  forbidden: v.boolean(),
  /** How the term is said in each language that has an agreed translation. */
  translations: v.record(v.string(), v.string()),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
});
export type GlossaryTerm = v.InferOutput<typeof GlossaryTerm>;

export const TermList = v.object({
  project_id: Uuid,
  /** In the order of their spelling, case folded. */
  terms: v.array(GlossaryTerm),
  /** Terms in the whole glossary that match (q), not only on this page. */
  count: v.number(),
  /** Only on a page (limit or cursor asked): the cursor of the next page, null on the last one. */
  next_cursor: v.optional(v.nullable(v.string())),
});
export type TermList = v.InferOutput<typeof TermList>;

/** The glossary's file formats (core/glossary/files): a spreadsheet's CSV, a term base's TBX. */
export const GlossaryFormatName = v.picklist(['csv', 'tbx'], 'format must be csv or tbx');
const dryRunFlag = v.pipe(v.picklist(['true', 'false'], 'dry_run must be true or false'), v.transform((s) => s === 'true'));

/** POST /v1/glossary/import's query (unknown parameters refused, as the listing's). */
export const ImportGlossaryQuery = v.strictObject({
  format: v.optional(v.pipe(v.string('format must be given once'), GlossaryFormatName), 'csv'),
  dry_run: v.optional(v.pipe(v.string('dry_run must be given once'), dryRunFlag), 'false'),
});
export const ExportGlossaryQuery = v.strictObject({
  format: v.optional(v.pipe(v.string('format must be given once'), GlossaryFormatName), 'csv'),
});

export const ImportGlossaryCommand = v.object({ ...WriteInProject, format: GlossaryFormatName, dryRun: v.boolean(), body: v.instance(Uint8Array) });
export const ExportGlossaryCommand = v.object({ ...InProject, format: GlossaryFormatName });

export const GlossaryImportResult = v.object({
  project_id: Uuid,
  format: GlossaryFormatName,
  /** true: what the import would do; nothing was written. */
  dry_run: v.boolean(),
  /** Terms of the file the glossary did not have (spellings compared in any case). */
  terms_created: v.number(),
  /** Terms it had whose spelling, description, flags or translations the file changes. */
  terms_updated: v.number(),
  /** Terms it had, the same as the file says. */
  terms_unchanged: v.number(),
  /** Translations added or changed, in all languages. */
  translations_written: v.number(),
  /** The project's languages the file's translations were read into. */
  languages: v.array(v.string()),
  /** Columns, languages and entries the import skipped, and why. */
  warnings: v.array(v.string()),
});
export type GlossaryImportResult = v.InferOutput<typeof GlossaryImportResult>;
