-- auto_rebuild's held requests, one row per process and project (core/cache/auto-rebuild.ts). The
-- first write of a process's quiet period records a hold that becomes due after ten debounces, so
-- that a process killed before its debounce timer fires loses nothing. The hold was a request in
-- cache_state (a sequence number with a not_before): a build made early for another reason (another
-- replica's timer, a POST /v1/cache/rebuild) covered that number, and the process's later writes of
-- the same quiet period, which record no hold of their own, were then built only by its timer: a
-- replica killed before it fired left them unbuilt, with `pending: false`. A hold now stays until
-- its own time (when a build takes it) or until its process's timer replaces it with a request.
create table rebuild_holds (
  project_id uuid not null,
  holder text not null,
  held_until timestamptz not null,
  primary key (project_id, holder)
);
create index rebuild_holds_due on rebuild_holds (held_until);
