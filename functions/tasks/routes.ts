// /v1/tasks: translation work handed to people (core/tasks; docs/decisions.md, "Tasks"). Nothing
// here changes what is served: no rebuild, no webhook.
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { apiKeyAuth, keyScope } from '../http/api-key-auth.ts';
import { dailyQuota } from '../http/daily-quota.ts';
import { describe } from '../http/describe.ts';
import { idempotencyKey } from '../http/idempotency-key.ts';
import { noBody, requireJsonBody, validBody, validParams, validQuery } from '../http/validate.ts';
import { respondJson } from '../http/response-headers.ts';
import { MAX_BODY_BYTES, requestBodyLimit } from '../http/body-limit.ts';
import { routeGroup } from '../http/route-group.ts';
import {
  CreatedTask,
  TaskPreview,
  CreateTaskInput,
  ListTasksQuery,
  Task,
  TASK_ASSIGNEES_MAX,
  TASK_KEYS_MAX,
  TaskKeyList,
  TaskKeysQuery,
  TaskList,
  UpdateTaskInput,
} from '../../core/tasks/schemas.ts';
import { TaskNumberParam } from '../../core/tasks/task-number.ts';
import { createTask, previewTask } from '../../core/tasks/create-task.ts';
import { listTasks } from '../../core/tasks/list-tasks.ts';
import { getTask } from '../../core/tasks/get-task.ts';
import { updateTask } from '../../core/tasks/update-task.ts';
import { deleteTask } from '../../core/tasks/delete-task.ts';
import { listTaskKeys } from '../../core/tasks/list-task-keys.ts';

const tag = 'Tasks';
const TaskParam = v.object({ number: TaskNumberParam });
const max = (n: number) => n.toLocaleString('en-US');

const routes = new Hono<AppEnv>()
  .use('*', apiKeyAuth(), dailyQuota(), requestBodyLimit(MAX_BODY_BYTES))
  .post(
    '/',
    describe({
      operationId: 'createTask',
      tag,
      idempotent: true,
      body: 'json',
      summary: 'Create a task: some keys to translate or to review in one language, for some people, by a day',
      description:
        'The keys are key_ids (live keys of the project; 422 at each one that is not) or the live keys a filter matches ' +
        "(GET /v1/keys's filters as an object; {} is every key). Keys already done for this kind of work in this language are " +
        'left out unless include_done is true (keys_left_out_done counts them): translate, a value in review or approved; review, an ' +
        'approved value; either way not outdated. Keys already in an open task of the same kind and language are left out too, unless ' +
        `include_tasked is true (keys_left_out_in_tasks). A task has 1 to ${max(TASK_KEYS_MAX)} keys (422 otherwise: split the work). ` +
        'dry_run=true checks everything and answers 200 with what the task would be (keys_total, the keys left out, the assignees), writing nothing and taking no number. ' +
        `assignees: up to ${TASK_ASSIGNEES_MAX} portal members of the project's account by email, each allowed the work in the language ` +
        '(a review task needs a reviewer, developer or owner; a translator or reviewer limited to other languages is refused); 422 at ' +
        'each one that is not. due_date: a day, YYYY-MM-DD. The task is numbered next in the project (#1, #2, …; numbers are never ' +
        'reused). Recorded as task.created; nothing served changes.',
      responses: { 201: CreatedTask, 200: TaskPreview },
    }),
    requireJsonBody(),
    validBody(CreateTaskInput),
    idempotencyKey(),
    async (c) => {
      const input = { ...keyScope(c), ...c.req.valid('json') };
      if (input.dry_run) return respondJson(c, await previewTask(c.get('deps'), input), 200);
      return respondJson(c, await createTask(c.get('deps'), input), 201);
    },
  )
  .get(
    '/',
    describe({
      operationId: 'listTasks',
      tag,
      summary: "The project's tasks, newest first",
      description:
        'Filtered by state (open, done, canceled), kind, language and assignee (an email). A page of limit tasks (1 to 200, default ' +
        '50) and next_cursor (null on the last page). Each task carries keys_total and keys_done, counted from the values as they are now.',
      responses: { 200: TaskList },
    }),
    validQuery(ListTasksQuery),
    async (c) => c.json(await listTasks(c.get('deps'), { projectId: c.get('principal').projectId, ...c.req.valid('query') })),
  )
  .get(
    '/:number',
    describe({ operationId: 'getTask', tag, summary: 'One task, with its progress', responses: { 200: Task, 404: null } }),
    validParams(TaskParam),
    async (c) => c.json(await getTask(c.get('deps'), { projectId: c.get('principal').projectId, number: c.req.valid('param').number })),
  )
  .get(
    '/:number/keys',
    describe({
      operationId: 'listTaskKeys',
      tag,
      summary: "A task's keys, each with its value's status in the task's language and whether it is done",
      description:
        'Live keys in name order (a key in the trash is left out until restored). done=false lists the work still to do. A page of ' +
        'limit keys (1 to 500, default 100) and next_cursor. GET /v1/keys?task={number} filters the keys listing (and the bulk ' +
        'actions) by a task the same way.',
      responses: { 200: TaskKeyList, 404: null },
    }),
    validParams(TaskParam),
    validQuery(TaskKeysQuery),
    async (c) => c.json(await listTaskKeys(c.get('deps'), { projectId: c.get('principal').projectId, number: c.req.valid('param').number, ...c.req.valid('query') })),
  )
  .patch(
    '/:number',
    describe({
      operationId: 'updateTask',
      tag,
      body: 'json',
      summary: 'Change a task: its name, description, due day, assignees, keys or state',
      description:
        'Fields left out stay. assignees is the whole new list (as at creation). add_keys and remove_keys change the keys of an open ' +
        'task (409 when it is done or canceled, unless this PATCH opens it again). state: done closes it when every key is done (409 ' +
        "naming how many are left otherwise); canceled closes it whatever its progress; open opens it again. Recorded as one event: " +
        'task.completed, task.canceled or task.reopened when the state moved, task.updated otherwise; a PATCH that changes nothing ' +
        'records nothing.',
      responses: { 200: Task, 404: null, 409: null },
    }),
    validParams(TaskParam),
    requireJsonBody(),
    validBody(UpdateTaskInput),
    async (c) => respondJson(c, await updateTask(c.get('deps'), { ...keyScope(c), number: c.req.valid('param').number, ...c.req.valid('json') }), 200),
  )
  .delete(
    '/:number',
    describe({ operationId: 'deleteTask', tag, body: 'none', summary: 'Delete a task (its keys and values stay; its number is not reused)', responses: { 204: null, 404: null } }),
    validParams(TaskParam),
    noBody(),
    async (c) => {
      await deleteTask(c.get('deps'), { ...keyScope(c), number: c.req.valid('param').number });
      return c.body(null, 204);
    },
  );

export const tasksGroup = routeGroup('tasks', routes);
