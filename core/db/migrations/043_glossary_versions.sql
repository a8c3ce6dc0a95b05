-- A per-project glossary version (docs/decisions.md, "A write's glossary, from memory"). Every
-- committed transaction that changes a project's glossary terms or their translations adds one to
-- it. A write of a value reads the version in its own statement and takes the project's glossary
-- from the process's memo when the memo holds that version (core/glossary/glossary-memo.ts),
-- instead of asking PostgreSQL for the terms of the source text on every PUT.
--
-- One row per project, not content versions' 16 slots: glossary writes are people editing terms
-- and whole-file imports (one transaction each), not a stream of concurrent writers, so one row
-- lock at commit queues nothing that matters. A project without a row is at version 0: its
-- glossary has not changed since this migration (or since a copy that did not fire the trigger).
--
-- No foreign key to projects, as for project_content_versions: a deleted project's row stays
-- behind, naming a uuid never reused.
create table project_glossary_versions (
  project_id uuid primary key,
  version bigint not null
);

-- Deferred to commit, and once per project and transaction (a transaction-local marker): a
-- 10,000-term import costs one row update, and the row is locked only while the commit runs.
create function bump_glossary_version() returns trigger language plpgsql as $$
declare
  project uuid := case when tg_op = 'DELETE' then old.project_id else new.project_id end;
  marker text := 'tms.glossary_' || replace(project::text, '-', '');
begin
  if current_setting(marker, true) = '1' then
    return null;
  end if;
  perform set_config(marker, '1', true);
  insert into project_glossary_versions as v (project_id, version)
  values (project, 1)
  on conflict (project_id) do update set version = v.version + 1;
  return null;
end $$;

create constraint trigger glossary_terms_glossary_version after insert or update or delete on glossary_terms
  deferrable initially deferred for each row execute function bump_glossary_version();
create constraint trigger glossary_term_translations_glossary_version after insert or update or delete on glossary_term_translations
  deferrable initially deferred for each row execute function bump_glossary_version();
