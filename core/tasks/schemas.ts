// Tasks: some keys to translate or to review in one language, for some assignees, by a due date
// (migration 041; docs/decisions.md, "Tasks"). A task is named by its number in the project (#3).
import * as v from 'valibot';
import { labelText, storableText, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';
import { LanguageCode } from '../languages/language-code.ts';
import { Email } from '../users/schemas.ts';
import { KeyFilter } from '../keys/key-filter.ts';
import { Cursor as KeyCursor } from '../keys/key-cursor.ts';

/** A task's keys: a large job is several tasks (a translator's week is not 10,000 keys), and the bound keeps one write bounded. */
export const TASK_KEYS_MAX = 10_000;
export const TASK_ASSIGNEES_MAX = 20;
/** Tasks ever created in a project (numbers are never reused; a deleted task's number stays taken). */
export const TASKS_PER_PROJECT_MAX = 100_000;
export const TASK_DESCRIPTION_MAX = 2_000;

export const TASK_KINDS = ['translate', 'review'] as const;
export const TaskKind = v.picklist(TASK_KINDS, 'kind must be translate or review');
export type TaskKind = v.InferOutput<typeof TaskKind>;
export const TASK_STATES = ['open', 'done', 'canceled'] as const;
export const TaskState = v.picklist(TASK_STATES, 'state must be open, done or canceled');
export type TaskState = v.InferOutput<typeof TaskState>;

const TaskName = labelText('name', 200);
const Description = v.pipe(storableText('description', TASK_DESCRIPTION_MAX), v.trim());

/** A calendar day, YYYY-MM-DD, that exists (not February 30th): the day the work is due, in UTC. */
export const DueDate = v.nullable(
  v.pipe(
    v.string('due_date must be a date, YYYY-MM-DD'),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, 'due_date must be a date, YYYY-MM-DD'),
    v.check((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && s >= '2000-01-01' && s <= '9999-12-31';
    }, 'due_date is not a day of the calendar'),
  ),
);

const Assignees = v.pipe(
  v.array(Email, 'assignees must be a list of email addresses'),
  v.maxLength(TASK_ASSIGNEES_MAX, `a task has at most ${TASK_ASSIGNEES_MAX} assignees`),
  v.transform((emails) => [...new Set(emails)]),
);
const KeyIds = (field: string) =>
  v.pipe(
    v.array(Uuid, `${field} must be a list of key ids`),
    v.maxLength(TASK_KEYS_MAX, `${field} may name at most ${TASK_KEYS_MAX.toLocaleString('en-US')} keys`),
    v.transform((ids) => [...new Set(ids)]),
  );

/**
 * POST /v1/tasks. The keys are `key_ids` or the live keys a `filter` matches (GET /v1/keys's
 * filter fields; `{}` is every key); keys already done for this kind of work in this language are
 * left out unless `include_done` (Tolgee's default: a task is the work still to do), and so are keys
 * already in an open task of the same kind and language unless `include_tasked`.
 */
export const CreateTaskInput = v.pipe(
  v.strictObject({
    name: TaskName,
    description: v.optional(Description, ''),
    kind: TaskKind,
    language: LanguageCode,
    key_ids: v.optional(v.pipe(KeyIds('key_ids'), v.minLength(1, 'key_ids must name at least one key'))),
    filter: v.optional(KeyFilter),
    include_done: v.optional(v.boolean('include_done must be true or false'), false),
    include_tasked: v.optional(v.boolean('include_tasked must be true or false'), false),
    /** Check everything and answer what the task would be, writing nothing (no number is taken). */
    dry_run: v.optional(v.boolean('dry_run must be true or false'), false),
    assignees: v.optional(Assignees, []),
    due_date: v.optional(DueDate, null),
  }),
  v.check((b) => (b.key_ids === undefined) !== (b.filter === undefined), 'give key_ids or filter (one of them): the keys of the task'),
);
export type CreateTaskInput = v.InferOutput<typeof CreateTaskInput>;

/**
 * PATCH /v1/tasks/{number}: any of its fields; `assignees` is the whole new list; `add_keys` and
 * `remove_keys` change its keys (while it is open); `state` closes it (done: every key done;
 * canceled) or opens it again.
 */
export const UpdateTaskInput = v.pipe(
  v.strictObject({
    name: v.optional(TaskName),
    description: v.optional(Description),
    due_date: v.optional(DueDate),
    assignees: v.optional(Assignees),
    state: v.optional(TaskState),
    add_keys: v.optional(KeyIds('add_keys')),
    remove_keys: v.optional(KeyIds('remove_keys')),
  }),
  v.check((b) => Object.values(b).some((x) => x !== undefined), 'Nothing to change: send name, description, due_date, assignees, state, add_keys or remove_keys'),
);
export type UpdateTaskInput = v.InferOutput<typeof UpdateTaskInput>;

export const TASKS_LIST_LIMIT_MAX = 200;
const Limit = v.pipe(v.number(), v.integer('limit must be an integer'), v.minValue(1, 'limit must be 1 to 200'), v.maxValue(TASKS_LIST_LIMIT_MAX, 'limit must be 1 to 200'));
const QueryLimit = v.pipe(v.string('limit must be given once'), v.regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 200'), v.transform(Number), Limit);
/** A page's position in the listing (newest first): the last task's number, as digits (opaque to clients). */
const TasksCursor = v.pipe(v.string('cursor must be given once'), v.regex(/^[1-9]\d{0,8}$/, 'cursor is not valid: pass next_cursor from a previous page unchanged'), v.transform(Number));

export { TaskNumber } from './task-number.ts';

export const ListTasksQuery = v.strictObject({
  state: v.optional(v.pipe(v.string('state must be given once'), TaskState)),
  kind: v.optional(v.pipe(v.string('kind must be given once'), TaskKind)),
  language: v.optional(v.pipe(v.string('language must be given once'), LanguageCode)),
  /** Tasks this member is assigned to (their email). */
  assignee: v.optional(v.pipe(v.string('assignee must be given once'), Email)),
  limit: v.optional(QueryLimit),
  cursor: v.optional(TasksCursor),
});

export const TaskKeysQuery = v.strictObject({
  /** Only the keys done (true) or still to do (false). */
  done: v.optional(v.pipe(v.picklist(['true', 'false'], 'done must be true or false'), v.transform((s) => s === 'true'))),
  limit: v.optional(v.pipe(v.string('limit must be given once'), v.regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 500'), v.transform(Number), v.integer(), v.minValue(1, 'limit must be 1 to 500'), v.maxValue(500, 'limit must be 1 to 500'))),
  cursor: v.optional(KeyCursor),
});

// Use-case inputs.
export const CreateTaskCommand = v.object({ ...WriteInProject, ...CreateTaskInput.pipe[0].entries });
export const UpdateTaskCommand = v.object({ ...WriteInProject, number: v.number(), ...UpdateTaskInput.pipe[0].entries });
export const TaskCommand = v.object({ ...InProject, number: v.number() });
export const DeleteTaskCommand = v.object({ ...WriteInProject, number: v.number() });
export const ListTasksCommand = v.object({
  ...InProject,
  state: v.optional(TaskState),
  kind: v.optional(TaskKind),
  language: v.optional(LanguageCode),
  assignee: v.optional(Email),
  limit: v.optional(Limit),
  cursor: v.optional(v.number()),
});
export const TaskKeysCommand = v.object({
  ...InProject,
  number: v.number(),
  done: v.optional(v.boolean()),
  limit: v.optional(v.number()),
  cursor: v.optional(v.string()),
});

const Person = v.object({
  type: v.picklist(['user', 'api_key', 'admin', 'system']),
  id: v.nullable(v.string()),
  /** A portal user's email or an API key's name, as they are now; null when it has none. */
  name: v.nullable(v.string()),
});

export const Task = v.object({
  number: v.number(),
  name: v.string(),
  description: v.string(),
  kind: TaskKind,
  language: v.string(),
  state: TaskState,
  /** YYYY-MM-DD, or null for none. */
  due_date: v.nullable(v.string()),
  assignees: v.array(v.object({ user_id: Uuid, email: v.string() })),
  /** The task's live keys (a key in the trash is left out until restored). */
  keys_total: v.number(),
  /** Of those, the keys whose value is done: translate, in review or approved; review, approved; and not outdated. */
  keys_done: v.number(),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  created_by: Person,
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
  /** When it was marked done or canceled; null while open. */
  closed_at: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  closed_by: v.nullable(Person),
});
export type Task = v.InferOutput<typeof Task>;

/** The answer to POST /v1/tasks: the task, and how many matching keys were left out, and why. */
export const CreatedTask = v.object({ ...Task.entries, keys_left_out_done: v.number(), keys_left_out_in_tasks: v.number() });
export type CreatedTask = v.InferOutput<typeof CreatedTask>;

/** The answer to POST /v1/tasks with dry_run: what the task would be; nothing written, no number taken. */
export const TaskPreview = v.object({
  dry_run: v.literal(true),
  kind: TaskKind,
  language: v.string(),
  keys_total: v.number(),
  keys_left_out_done: v.number(),
  keys_left_out_in_tasks: v.number(),
  assignees: v.array(v.object({ user_id: Uuid, email: v.string() })),
});
export type TaskPreview = v.InferOutput<typeof TaskPreview>;

export const TaskList = v.object({ data: v.array(Task), next_cursor: v.nullable(v.string()) });
export type TaskList = v.InferOutput<typeof TaskList>;

export const TaskKey = v.object({
  key_id: Uuid,
  key: v.string(),
  group_name: v.string(),
  /** The value's status in the task's language, or null when it has none. */
  status: v.nullable(v.picklist(['draft', 'review', 'approved'])),
  outdated: v.boolean(),
  done: v.boolean(),
});
export type TaskKey = v.InferOutput<typeof TaskKey>;
export const TaskKeyList = v.object({ data: v.array(TaskKey), next_cursor: v.nullable(v.string()) });
export type TaskKeyList = v.InferOutput<typeof TaskKeyList>;
