-- Rebuild bookkeeping per project. Every rebuild request bumps requested_seq and carries the new
-- value; a build records the requested_seq it saw in its snapshot as built_seq. A request whose seq
-- is not above built_seq is already covered by a build that started after it: it is skipped. That
-- is how bursts coalesce, on the in-process queue and on SQS alike.
create table cache_state (
  project_id uuid primary key references projects (id) on delete cascade,
  requested_seq bigint not null default 0,
  built_seq bigint not null default 0,
  last_build_id text,
  last_rebuilt_at timestamptz
);
