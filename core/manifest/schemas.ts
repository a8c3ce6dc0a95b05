import * as v from 'valibot';
import { Uuid } from '../validation.ts';

export const ManifestLanguage = v.object({
  code: v.string(),
  /** English display name: "German", "Portuguese (Brazil)". */
  name: v.string(),
  /** ISO 639-1 code of the primary subtag; null when the language has none (a 3-letter code). */
  iso: v.nullable(v.string()),
  approved_count: v.number(),
});
export type ManifestLanguage = v.InferOutput<typeof ManifestLanguage>;

export const Manifest = v.object({ project_id: Uuid, languages: v.array(ManifestLanguage) });
export type Manifest = v.InferOutput<typeof Manifest>;
