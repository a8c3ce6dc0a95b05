// Path parameters shared by several route groups.
import * as v from 'valibot';
import { Uuid } from '../../core/validation.ts';
import { LanguageCode } from '../../core/languages/language-code.ts';

export const KeyIdParam = v.object({ key_id: Uuid });
export const LanguageParam = v.object({ language: LanguageCode });
