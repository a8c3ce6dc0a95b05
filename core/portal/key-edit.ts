// The editor's key form (group, description, tags and character limit), written over what the page showed: the
// fields the user changed, and only while their stored values are still the ones the form was loaded
// with. A form always sends every field, so a plain update (the API's PATCH) would put back the
// page's old text over a colleague's change to a field the user never touched.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { WriteInProject } from '../commands.ts';
import { nfc, Uuid } from '../validation.ts';
import { parseInput } from '../use-case.ts';
import { normalTags, Tags } from '../keys/tags.ts';
import { keyById } from '../keys/by-id.ts';
import { keyNotFound, updateKey } from '../keys/update-key.ts';
import { MAX_LENGTH_LIMIT, type UpdatedKey } from '../keys/schemas.ts';

const FIELDS = ['group_name', 'description', 'tags', 'max_length'] as const;
type Field = (typeof FIELDS)[number];

/** A field's new value, and the value the page showed for it (none: an older form, not compared). */
const Change = v.object({ now: v.string(), was: v.optional(v.string()) });
/** The key's whole new set of tags (checked as the API's PATCH checks them), and the set the page showed. */
const TagsChange = v.object({ now: Tags, was: v.optional(v.array(v.string())) });

const MAX_LENGTH_FORM_RULE = `the character limit must be a whole number from 1 to ${MAX_LENGTH_LIMIT}, or empty for none`;
/**
 * A character limit as a form's field sends it (a number input's text): digits, spaces around them
 * ignored; empty is no limit (null). Anything else ("abc", "1.5", "1e3", "-1", "0", 10001, a string
 * of 40 digits) is refused with a message the field shows.
 */
export const MaxLengthText = v.pipe(
  v.string(MAX_LENGTH_FORM_RULE),
  v.trim(),
  v.regex(/^(?:0*\d{1,5})?$/, MAX_LENGTH_FORM_RULE),
  v.transform((text) => (text === '' ? null : Number(text))),
  v.check((n) => n === null || (n >= 1 && n <= MAX_LENGTH_LIMIT), MAX_LENGTH_FORM_RULE),
);

/** The New key form's Character limit: null when left empty; a validation error at `max_length` otherwise. */
export const maxLengthOfForm = (text: string | undefined): number | null => parseInput(v.object({ max_length: MaxLengthText }), { max_length: text ?? '' }).max_length;

/** The limit the page showed (its hidden field's text), as stored: "" is none; text that is no number matches nothing. */
const shownMaxLength = (was: string): number | null => (was.trim() === '' ? null : Number(was.trim()));
/** The key's new limit as typed ("" removes it), and the limit the page showed. */
const MaxLengthChange = v.object({ now: MaxLengthText, was: v.optional(v.string()) });

export const EditKeyAsShownCommand = v.object({
  ...WriteInProject,
  keyId: Uuid,
  group_name: v.optional(Change),
  /** "" clears the description. */
  description: v.optional(Change),
  tags: v.optional(TagsChange),
  /** "" removes the limit. */
  max_length: v.optional(MaxLengthChange),
});

const WORDS: Record<Field, string> = { group_name: 'group', description: 'description', tags: 'tags', max_length: 'character limit' };

/**
 * Line breaks as a browser sends them (CRLF, in a textarea's text and in a hidden field's value
 * alike) or as the API stored them: the same text either way.
 */
const sameText = (a: string, b: string) => a.replace(/\r\n?/g, '\n') === b.replace(/\r\n?/g, '\n');

/** Two sets of tags, as stored (sorted, NFC, trimmed): the same set whatever order the page listed them in. */
export const sameTags = (a: readonly string[], b: readonly string[]) => {
  const [x, y] = [normalTags(a.map((t) => nfc(t).trim())), normalTags(b.map((t) => nfc(t).trim()))];
  return x.length === y.length && x.every((t, i) => t === y[i]);
};

/**
 * Writes the changed fields (given ones) through updateKey, in one transaction with the check that
 * each one's stored value is still the shown one (the row locked first): else nothing is written and
 * a 412 names what changed. Nothing given: nothing to write, the key as it is.
 */
export const editKeyAsShown = useCase(
  EditKeyAsShownCommand,
  async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<UpdatedKey | null> => {
    const changed = FIELDS.filter((f) => input[f] !== undefined);
    if (changed.length === 0) return null;
    return transaction(deps, async (tx) => {
      const [stored] = await tx.sql<{ group_name: string; description: string | null; tags: string[]; max_length: number | null }[]>`
        select group_name, description, tags, max_length from translation_keys
        where id = (select k.id from ${keyById(tx.sql, input.keyId)} k where k.project_id = ${input.projectId}) and deleted_at is null for update`;
      if (!stored) throw keyNotFound();
      const moved = changed.filter((f) => {
        if (f === 'tags') {
          const was = input.tags!.was;
          return was !== undefined && !sameTags(stored.tags, was);
        }
        if (f === 'max_length') {
          const was = input.max_length!.was;
          return was !== undefined && stored.max_length !== shownMaxLength(was);
        }
        const was = input[f]!.was;
        return was !== undefined && !sameText(stored[f] ?? '', was);
      });
      if (moved.length > 0) {
        const what = moved.map((f) => WORDS[f]).join(' and ');
        throw new AppError(
          'precondition_failed',
          `Not saved: someone else changed this key's ${what} since the page was loaded (shown above as it is now). Your changes are kept below: Save again to replace it.`,
        );
      }
      const description = input.description?.now;
      return updateKey(
        { ...deps, tx },
        {
          projectId: input.projectId,
          keyId: input.keyId,
          actor: input.actor,
          ...(input.group_name ? { group_name: input.group_name.now } : {}),
          ...(description !== undefined ? { description: description === '' ? null : description } : {}),
          ...(input.tags ? { tags: input.tags.now } : {}),
          ...(input.max_length ? { max_length: input.max_length.now } : {}),
        },
      );
    });
  },
);
