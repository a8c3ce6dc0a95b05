// POST /v1/tasks: a task over some keys, in one of the project's languages, numbered next in the
// project (task_numbers: numbers are never reused, so "#3" names one task for good). Recorded as
// task.created; nothing served changes. A dry run checks the same and answers what the task would
// be, before any write: a client creating a task per language checks them all before the first.
import * as v from 'valibot';
import type { Deps } from '../deps.ts';
import { actorId } from '../actor.ts';
import { validationError } from '../errors.ts';
import { transaction, type Tx } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import { resolveAssignees, setAssignees } from './task-assignees.ts';
import { selectTaskKeys } from './task-keys.ts';
import { readTask, toTask } from './task-rows.ts';
import { CreateTaskCommand, TASKS_PER_PROJECT_MAX, type CreatedTask, type TaskPreview } from './schemas.ts';

type Input = v.InferOutput<typeof CreateTaskCommand>;

/** Everything a create checks, in the order it checks it, before any write: the task as it would be. */
async function plan(tx: Tx, input: Input): Promise<{ preview: TaskPreview; keyIds: string[] }> {
  const { projectId, kind, language } = input;
  // The language row is locked against its removal while the task is made (its tasks go with it).
  const [registered] = await tx.sql`select 1 from project_languages where project_id = ${projectId} and code = ${language} for key share`;
  if (!registered) throw validationError([{ loc: ['body', 'language'], msg: `${language} is not a language of this project`, type: 'value_error' }]);
  const work = { projectId, kind, language };
  const assignees = await resolveAssignees(tx.sql, work, input.assignees, ['body', 'assignees']);
  const keys = await selectTaskKeys(tx.sql, work, input.key_ids !== undefined ? { keyIds: input.key_ids } : { filter: input.filter ?? {} }, {
    includeDone: input.include_done,
    includeTasked: input.include_tasked,
  });
  return {
    preview: { dry_run: true, kind, language, keys_total: keys.keyIds.length, keys_left_out_done: keys.leftOutDone, keys_left_out_in_tasks: keys.leftOutTasked, assignees },
    keyIds: keys.keyIds,
  };
}

/** POST /v1/tasks with dry_run: the same checks and counts, nothing written, no number taken. */
export const previewTask = useCase(CreateTaskCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<TaskPreview> =>
  transaction(deps, async (tx) => (await plan(tx, input)).preview),
);

export const createTask = useCase(CreateTaskCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<CreatedTask> => {
  const { projectId, actor, kind, language } = input;
  return transaction(deps, async (tx) => {
    const { preview, keyIds } = await plan(tx, input);
    const { assignees } = preview;
    const keys = { keyIds, leftOutDone: preview.keys_left_out_done, leftOutTasked: preview.keys_left_out_in_tasks };
    // The project's counter row serializes two creates of one project (and only those).
    const [counter] = await tx.sql<{ last: number }[]>`
      insert into task_numbers (project_id, last) values (${projectId}, 1)
      on conflict (project_id) do update set last = task_numbers.last + 1
      returning last`;
    const number = counter!.last;
    if (number > TASKS_PER_PROJECT_MAX) {
      throw validationError([{ loc: ['body'], msg: `a project has at most ${TASKS_PER_PROJECT_MAX.toLocaleString('en-US')} tasks, ever`, type: 'value_error' }]);
    }
    const [task] = await tx.sql<{ id: string }[]>`
      insert into tasks (project_id, number, name, description, kind, language, due_date, created_by_type, created_by_id)
      values (${projectId}, ${number}, ${input.name}, ${input.description}, ${kind}, ${language}, ${input.due_date}, ${actor.type}, ${actorId(actor)})
      returning id`;
    const taskId = task!.id;
    await tx.sql`insert into task_keys (task_id, key_id) select ${taskId}, unnest(${keys.keyIds}::uuid[])`;
    await setAssignees(tx.sql, taskId, assignees.map((a) => a.user_id));
    tx.record({
      type: 'task.created',
      projectId,
      actor,
      entity: { type: 'task', id: taskId },
      after: { number, name: input.name, kind, language, keys: keys.keyIds.length, assignees: assignees.map((a) => a.user_id), due_date: input.due_date },
    });
    const row = await readTask(tx.sql, projectId, number);
    return { ...toTask(row!), keys_left_out_done: keys.leftOutDone, keys_left_out_in_tasks: keys.leftOutTasked };
  });
});
