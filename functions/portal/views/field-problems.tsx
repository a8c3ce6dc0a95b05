// A refused form's problems, field by field, tied to the fields they are about (WCAG 3.3.1, 1.3.1):
// the field is marked aria-invalid and described by its message, shown beside it. The page's notice
// at the top still says everything (role=alert), so the message beside the field is no second alert.
import type { FC } from 'hono/jsx';
import type { AppError } from '../../../core/errors.ts';

/** Field name -> what is wrong with it. */
export type FieldProblems = Readonly<Record<string, string>>;

const NOT_FIELDS = new Set(['body', 'query', 'path']);

/** A validation error's issues by the form field each names (its first named location). */
export function fieldProblems(error: AppError): FieldProblems {
  const problems: Record<string, string> = {};
  for (const issue of error.issues ?? []) {
    const field = issue.loc.find((part): part is string => typeof part === 'string' && !NOT_FIELDS.has(part));
    if (field === undefined) continue;
    problems[field] = problems[field] ? `${problems[field]}; ${issue.msg}` : issue.msg;
  }
  return problems;
}

/** The attributes that tie field `name` of form `form` to its problem, or none. */
export function problemAttrs(problems: FieldProblems | undefined, form: string, name: string) {
  return problems?.[name] === undefined ? {} : { 'aria-invalid': 'true', 'aria-describedby': `problem-${form}-${name}` };
}

/** The problem of field `name`, to show beside it (nothing when it has none). */
export const FieldProblem: FC<{ problems: FieldProblems | undefined; form: string; name: string }> = ({ problems, form, name }) =>
  problems?.[name] === undefined ? null : (
    <p class="field-error" id={`problem-${form}-${name}`}>
      {problems[name]}
    </p>
  );
