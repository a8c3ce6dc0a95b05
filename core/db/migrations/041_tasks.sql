-- Tasks: a piece of translation work handed to people (docs/decisions.md, "Tasks"), as Tolgee's,
-- Lokalise's and Phrase's tasks (jobs): some keys to translate, or to review, in one language, for
-- some assignees, by a due date. A key of a task is done when its value says so (a translate task:
-- the value is in review or approved and not outdated; a review task: approved and not outdated),
-- read from the values each time (core/tasks/task-progress.ts): no second state to keep in step.
-- - number: the task's name in its project (#1, #2, …), given by task_numbers, never reused.
-- - state: open, done (every key done when it was closed), canceled.
-- - language: removing the language from the project removes its tasks, as it removes its values.
create table task_numbers (
  project_id uuid primary key references projects (id) on delete cascade,
  last integer not null
);

create table tasks (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  number integer not null check (number > 0),
  name text not null check (char_length(name) between 1 and 200),
  description text not null default '',
  kind text not null check (kind in ('translate', 'review')),
  language text not null,
  state text not null default 'open' check (state in ('open', 'done', 'canceled')),
  due_date date,
  created_by_type text not null,
  created_by_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  closed_at timestamptz,
  closed_by_type text,
  closed_by_id text,
  unique (project_id, number),
  foreign key (project_id, language) references project_languages (project_id, code) on delete cascade
);
-- The project's listing: open tasks first is a sort of a few rows; state and number serve its filter.
create index tasks_project_state_idx on tasks (project_id, state, number);

-- The keys of a task. A key in the trash stays in its tasks, left out of their counts until restored;
-- a key deleted for good leaves them.
create table task_keys (
  task_id uuid not null references tasks (id) on delete cascade,
  key_id uuid not null references translation_keys (id) on delete cascade,
  primary key (task_id, key_id)
);
-- The tasks of a key (the editor's task filter goes the other way, through the primary key).
create index task_keys_key_idx on task_keys (key_id);

-- Who works on a task: members of the project's account who may do its kind of work in its
-- language. Removing a member, or a role or language change that takes that away, removes them.
create table task_assignees (
  task_id uuid not null references tasks (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  primary key (task_id, user_id)
);
-- A member's tasks (the portal's "My tasks").
create index task_assignees_user_idx on task_assignees (user_id);
