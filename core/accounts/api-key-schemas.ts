// API keys as the admin API and the portal create and list them: a label, a kind, and for delivery
// keys the origins and languages they are bound to (docs/decisions.md, "API keys").
import * as v from 'valibot';
import { labelText, Uuid } from '../validation.ts';
import { Actor } from '../actor.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { API_KEY_KINDS } from '../auth/api-key-format.ts';
import { canonicalOrigin } from './origin.ts';

export { canonicalOrigin };

export const MAX_ALLOWED_ORIGINS = 50;
export const MAX_ALLOWED_LANGUAGES = 100;

/** A label for people: trimmed, 1 to 100 characters, no control characters. */
export const ApiKeyName = labelText('name', 100);


const Origin = v.pipe(
  v.string('an origin must be a string'),
  v.check((s) => canonicalOrigin(s) !== null, 'an origin is a scheme, host and optional port, such as https://app.example.com (no path)'),
  v.transform((s) => canonicalOrigin(s)!),
);

const unique = <T>(list: T[]) => [...new Set(list)];

export const ApiKeyKind = v.picklist(API_KEY_KINDS, `kind must be one of ${API_KEY_KINDS.join(', ')}`);

const ApiKeyFields = {
  name: v.optional(ApiKeyName),
  kind: v.optional(ApiKeyKind, 'live'),
  allowed_origins: v.optional(
    v.pipe(
      v.array(Origin, 'allowed_origins must be a list of origins'),
      v.minLength(1, 'allowed_origins must name at least one origin (leave it out for any)'),
      v.maxLength(MAX_ALLOWED_ORIGINS, `allowed_origins takes at most ${MAX_ALLOWED_ORIGINS} origins`),
      v.transform(unique),
    ),
  ),
  allowed_languages: v.optional(
    v.pipe(
      v.array(LanguageCode, 'allowed_languages must be a list of language codes'),
      v.minLength(1, 'allowed_languages must name at least one language (leave it out for all)'),
      v.maxLength(MAX_ALLOWED_LANGUAGES, `allowed_languages takes at most ${MAX_ALLOWED_LANGUAGES} languages`),
      v.transform(unique),
    ),
  ),
};

type Restrictable = { kind: string; allowed_origins?: unknown; allowed_languages?: unknown };
/** allowed_origins and allowed_languages bind delivery keys only: on a live key they are a 422 naming the field. */
const deliveryOnly = <T extends Restrictable>(field: 'allowed_origins' | 'allowed_languages') =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed || dataset.value.kind === 'delivery' || dataset.value[field] === undefined) return;
    addIssue({
      message: `${field} applies to delivery keys only (kind: "delivery")`,
      path: [{ type: 'object', origin: 'value', input: dataset.value as Record<string, unknown>, key: field, value: dataset.value[field] }],
    });
  });

export const CreateApiKeyInput = v.pipe(
  v.strictObject(ApiKeyFields),
  deliveryOnly('allowed_origins'),
  deliveryOnly('allowed_languages'),
);
export type CreateApiKeyInput = v.InferOutput<typeof CreateApiKeyInput>;

export const CreateApiKeyCommand = v.pipe(
  v.object({ actor: Actor, projectId: Uuid, ...ApiKeyFields }),
  deliveryOnly('allowed_origins'),
  deliveryOnly('allowed_languages'),
);

const restrictions = {
  allowed_origins: v.pipe(v.nullable(v.array(v.string())), v.description('Delivery keys: the browser origins allowed (null: any)')),
  allowed_languages: v.pipe(v.nullable(v.array(v.string())), v.description('Delivery keys: the languages readable (null: all)')),
};

export const CreatedApiKey = v.object({
  id: Uuid,
  key: v.pipe(v.string(), v.description('The key itself: shown this once, never stored')),
  project_id: Uuid,
  name: v.nullable(v.string()),
  kind: ApiKeyKind,
  ...restrictions,
  created_at: v.string(),
});
export type CreatedApiKey = v.InferOutput<typeof CreatedApiKey>;

export const ApiKeyInfo = v.object({
  id: Uuid,
  project_id: Uuid,
  name: v.nullable(v.string()),
  kind: ApiKeyKind,
  key_hint: v.pipe(
    v.nullable(v.string()),
    v.description('The prefix and last four characters (key_live_…AbCd), to tell keys apart; null for keys made before hints were kept'),
  ),
  ...restrictions,
  created_at: v.string(),
  last_used_at: v.pipe(v.nullable(v.string()), v.description('Last authenticated use, to about a minute; null if never used')),
  revoked_at: v.nullable(v.string()),
});
export type ApiKeyInfo = v.InferOutput<typeof ApiKeyInfo>;
