-- A per-project content version for the live reads (docs/decisions.md, "Live reads: content
-- version and memo"). Every committed transaction that changes a project's keys, values or
-- languages adds one to the project's version; a live read asks for the version (one indexed
-- lookup) and serves the body it built for that version when it has not moved.
--
-- The version is the sum of up to 16 slot rows. A writer bumps the slot of its own backend
-- (pg_backend_pid() % 16), so concurrent writers of one project update different rows and do not
-- wait for each other (one shared row would serialize every write of a project on its row lock).
-- The sum rises with every commit, and snapshots see commits as a growing prefix, so one sum
-- stands for exactly one set of committed writes.
--
-- No foreign key to projects, on purpose: its check would take a share lock on the project row
-- and queue every write behind key creation's FOR UPDATE of it (see 004_domain_events.sql). The
-- rows of a deleted project stay behind, 16 small rows at most, naming a uuid never reused.
create table project_content_versions (
  project_id uuid not null,
  slot smallint not null,
  version bigint not null,
  primary key (project_id, slot)
);

-- Deferred to commit: the slot row is locked only from the commit's start to its end, after every
-- other lock the transaction takes, so it adds no lock-order deadlock. Row-level (constraint
-- triggers are), but bumps once per project and transaction: a transaction-local setting remembers
-- the projects already bumped, so a 10,000-row import costs one row update, not 10,000.
create function bump_content_version() returns trigger language plpgsql as $$
declare
  project uuid := case when tg_op = 'DELETE' then old.project_id else new.project_id end;
  marker text := 'tms.content_' || replace(project::text, '-', '');
begin
  if current_setting(marker, true) = '1' then
    return null;
  end if;
  perform set_config(marker, '1', true);
  insert into project_content_versions as v (project_id, slot, version)
  values (project, (pg_backend_pid() % 16)::smallint, 1)
  on conflict (project_id, slot) do update set version = v.version + 1;
  return null;
end $$;

create constraint trigger translation_keys_content_version after insert or update or delete on translation_keys
  deferrable initially deferred for each row execute function bump_content_version();
create constraint trigger translations_content_version after insert or update or delete on translations
  deferrable initially deferred for each row execute function bump_content_version();
create constraint trigger project_languages_content_version after insert or update or delete on project_languages
  deferrable initially deferred for each row execute function bump_content_version();
