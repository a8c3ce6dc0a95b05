// PATCH /v1/tasks/{number}: its name, description, due date and assignees; keys added or removed
// while it is open; and its state: done (only when every key is done), canceled, or open again.
// Recorded as one event: task.completed, task.canceled or task.reopened when the state moved,
// task.updated otherwise; a PATCH that changes nothing records nothing.
import type { Deps } from '../deps.ts';
import { actorId } from '../actor.ts';
import { conflict, validationError } from '../errors.ts';
import { transaction } from '../db/transaction.ts';
import { useCase } from '../use-case.ts';
import type { EventType } from '../events/domain-event.ts';
import { resolveAssignees, setAssignees } from './task-assignees.ts';
import { liveKeyIds } from './task-keys.ts';
import { readTask, taskNotFound, toTask } from './task-rows.ts';
import { TASK_KEYS_MAX, UpdateTaskCommand, type Task, type TaskKind, type TaskState } from './schemas.ts';

const STATE_EVENTS: Record<TaskState, EventType> = { done: 'task.completed', canceled: 'task.canceled', open: 'task.reopened' };

export const updateTask = useCase(UpdateTaskCommand, async (deps: Pick<Deps, 'sql' | 'events' | 'tx'>, input): Promise<Task> => {
  const { projectId, actor, number } = input;
  return transaction(deps, async (tx) => {
    // Locked: two PATCHes of one task apply one after the other, each to what the other left.
    const [current] = await tx.sql<{ id: string; name: string; description: string; due_date: string | null; kind: TaskKind; language: string; state: TaskState }[]>`
      select id, name, description, due_date::text as due_date, kind, language, state
      from tasks where project_id = ${projectId} and number = ${number} for no key update`;
    if (!current) throw taskNotFound(number);
    const taskId = current.id;
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const change = (field: string, was: unknown, now: unknown) => {
      before[field] = was;
      after[field] = now;
    };

    if (input.name !== undefined && input.name !== current.name) change('name', current.name, input.name);
    if (input.description !== undefined && input.description !== current.description) change('description', current.description, input.description);
    if (input.due_date !== undefined && input.due_date !== current.due_date) change('due_date', current.due_date, input.due_date);
    if (Object.keys(after).length > 0) {
      await tx.sql`update tasks set name = ${input.name ?? current.name}, description = ${input.description ?? current.description},
        due_date = ${input.due_date === undefined ? current.due_date : input.due_date} where id = ${taskId}`;
    }

    if (input.assignees !== undefined) {
      const wanted = await resolveAssignees(tx.sql, { projectId, kind: current.kind, language: current.language }, input.assignees, ['body', 'assignees']);
      const had = await tx.sql<{ user_id: string }[]>`select user_id from task_assignees where task_id = ${taskId} order by user_id`;
      const was = had.map((r) => r.user_id);
      const now = wanted.map((a) => a.user_id).sort();
      if (was.join() !== now.join()) {
        await setAssignees(tx.sql, taskId, now);
        change('assignees', was, now);
      }
    }

    const targetState = input.state ?? current.state;
    const addKeys = input.add_keys ?? [];
    const removeKeys = input.remove_keys ?? [];
    if (addKeys.length + removeKeys.length > 0) {
      if (current.state !== 'open' && targetState !== 'open') {
        throw conflict(`Task #${number} is ${current.state}: open it again (state "open") to change its keys`);
      }
      await liveKeyIds(tx.sql, projectId, addKeys, ['body', 'add_keys']);
      const removed = removeKeys.length === 0 ? [] : await tx.sql`
        delete from task_keys where task_id = ${taskId} and key_id = any(${removeKeys}::uuid[]) returning key_id`;
      const added = addKeys.length === 0 ? [] : await tx.sql`
        insert into task_keys (task_id, key_id) select ${taskId}, unnest(${addKeys}::uuid[]) on conflict do nothing returning key_id`;
      if (added.length > 0) {
        const [count] = await tx.sql<{ n: number }[]>`select count(*)::int as n from task_keys where task_id = ${taskId}`;
        if (count!.n > TASK_KEYS_MAX) {
          throw validationError([{ loc: ['body', 'add_keys'], msg: `a task has at most ${TASK_KEYS_MAX.toLocaleString('en-US')} keys; this would make ${count!.n.toLocaleString('en-US')}`, type: 'value_error' }]);
        }
      }
      if (added.length > 0) after.keys_added = added.length;
      if (removed.length > 0) after.keys_removed = removed.length;
    }

    let stateEvent: EventType | null = null;
    if (input.state !== undefined && input.state !== current.state) {
      if (input.state === 'done') {
        const task = await readTask(tx.sql, projectId, number);
        const left = task!.keys_total - task!.keys_done;
        if (task!.keys_total === 0) throw conflict(`Task #${number} has no keys to be done: cancel it instead`);
        if (left > 0) throw conflict(`Task #${number} is not done: ${left} of its ${task!.keys_total} keys are still to ${current.kind === 'review' ? 'review' : 'translate'}`);
      }
      const closing = input.state !== 'open';
      await tx.sql`update tasks set state = ${input.state},
        closed_at = ${closing ? tx.sql`now()` : null}, closed_by_type = ${closing ? actor.type : null}, closed_by_id = ${closing ? actorId(actor) : null}
        where id = ${taskId}`;
      change('state', current.state, input.state);
      stateEvent = STATE_EVENTS[input.state];
    }

    if (Object.keys(after).length > 0) {
      await tx.sql`update tasks set updated_at = now() where id = ${taskId}`;
      tx.record({ type: stateEvent ?? 'task.updated', projectId, actor, entity: { type: 'task', id: taskId }, before: { number, ...before }, after: { number, ...after } });
    }
    return toTask((await readTask(tx.sql, projectId, number))!);
  });
});
