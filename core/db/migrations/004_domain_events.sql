-- What every write did, by whom, recorded in the write's own transaction (core/db/transaction.ts).
-- Subscribers that must not miss an event (webhooks, an activity log) read it by id.
-- No foreign keys on purpose: a foreign-key check locks the referenced row (FOR KEY SHARE), so every
-- write of a project would lock the project row, and concurrent writers of one project would contend
-- on it (measured: write throughput halved). The log is append-only and outlives nothing it names.
create table domain_events (
  id bigint generated always as identity primary key,
  type text not null,
  project_id uuid,
  account_id uuid,
  actor_type text not null check (actor_type in ('api_key', 'user', 'admin', 'system')),
  actor_id text,
  entity_type text not null,
  entity_id text not null,
  before jsonb,
  after jsonb,
  occurred_at timestamptz not null default now()
);
create index domain_events_project_idx on domain_events (project_id, id) where project_id is not null;
create index domain_events_account_idx on domain_events (account_id, id) where account_id is not null;
