-- cache_state becomes the durable rebuild queue of the self-hosted and embedded modes: a project
-- has a pending build while requested_seq > built_seq (already true since 003). What a worker needs
-- on top of that, all on the same row so that a request and its schedule commit together:
--   not_before      a pending build does not start before this (auto_rebuild's debounce, the
--                   backoff after a failed build); null means as soon as a worker is free.
--   lease_owner,    the worker building it now, and until when its claim holds; a worker renews
--   lease_until     it while it builds, so a claim of a killed process lapses and is retaken.
--   last_started_at when the last build of the project started: the next waits a short interval,
--                   which keeps a burst of requests at two builds.
--   attempts,       failed builds since the last success, when the last one failed and a public
--   failed_at,      message for GET /v1/cache/status (details stay in the log).
--   last_error
alter table cache_state
  add column not_before timestamptz,
  add column lease_owner text,
  add column lease_until timestamptz,
  add column last_started_at timestamptz,
  add column attempts integer not null default 0,
  add column failed_at timestamptz,
  add column last_error text;

-- Workers look only at pending rows: a few at a time, however many projects there are.
create index cache_state_pending on cache_state (project_id) where requested_seq > built_seq;
