-- Accounts own projects; projects own API keys, translation keys, languages and values.

create table accounts (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  plan text not null check (plan in ('free', 'solo', 'team', 'business')),
  -- Admin override of the plan's daily API-call limit; null means the plan's own.
  daily_call_limit integer check (daily_call_limit is null or daily_call_limit >= 0),
  created_at timestamptz not null default now()
);

create table projects (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts (id) on delete cascade,
  name text not null,
  auto_rebuild boolean not null default false,
  created_at timestamptz not null default now()
);
create index projects_account_idx on projects (account_id);

create table api_keys (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  -- sha256 of the whole key, hex. The key itself is shown once and never stored.
  key_hash text not null unique,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index api_keys_project_idx on api_keys (project_id);

create table translation_keys (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  key text not null,
  group_name text not null,
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
-- A name is unique among the project's live keys; a soft-deleted key frees its name.
create unique index translation_keys_live_name_idx on translation_keys (project_id, key) where deleted_at is null;
-- Group listing, group filter, rename and the group read path all walk live keys of one group.
create index translation_keys_live_group_idx on translation_keys (project_id, group_name, key) where deleted_at is null;

create table project_languages (
  project_id uuid not null references projects (id) on delete cascade,
  code text not null,
  added_at timestamptz not null default now(),
  primary key (project_id, code)
);

create table translations (
  key_id uuid not null references translation_keys (id) on delete cascade,
  project_id uuid not null,
  language text not null,
  value text not null,
  status text not null check (status in ('draft', 'review', 'approved')),
  updated_at timestamptz not null default now(),
  primary key (key_id, language),
  -- Removing a language from a project removes its values with it.
  foreign key (project_id, language) references project_languages (project_id, code) on delete cascade
);
-- Live reads of one language (optionally one status) for a project.
create index translations_project_language_idx on translations (project_id, language, status);
