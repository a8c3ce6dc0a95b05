// A task's number in a path, a query or a filter: #3 is 3 (a string in a URL, either in JSON).
import * as v from 'valibot';

export const TaskNumber = v.pipe(
  v.union([v.string(), v.number()], 'task must be a task number'),
  v.transform(String),
  v.regex(/^[1-9]\d{0,8}$/, 'task must be a task number (1, 2, …)'),
  v.transform(Number),
);

/** In a path: the digits of the number (a path holds text only). */
export const TaskNumberParam = v.pipe(v.string(), v.regex(/^[1-9]\d{0,8}$/, 'number must be a task number (1, 2, …)'), v.transform(Number));
