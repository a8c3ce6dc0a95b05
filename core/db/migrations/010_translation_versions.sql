-- Optimistic concurrency on values (docs/decisions.md, "Keys API: search, bulk and versions"). Every
-- value carries a version, its strong ETag; a write that names the version it read (If-Match) is
-- refused with 412 when the value has changed since.
--
-- The version comes from one sequence, not a per-row counter: a value deleted and written again
-- starts from a fresh number, so an ETag taken before the delete can never match the new value
-- (a per-row counter would restart at 1 and match a text its holder never saw).
create sequence translation_version_seq as bigint;

alter table translations add column version bigint not null default nextval('translation_version_seq');

-- A trigger, not each writer's SQL: every path that updates a value (the PUT, bulk status, imports,
-- a revert from the history) moves the version, including paths written later. A write that leaves
-- text and status as they were keeps the version: a retried PUT answers what the first did, and
-- another editor's If-Match still holds, since what they read is still what is there.
create function bump_translation_version() returns trigger language plpgsql as $$
begin
  if new.value is distinct from old.value or new.status is distinct from old.status then
    new.version := nextval('translation_version_seq');
  else
    new.version := old.version;
  end if;
  return new;
end $$;

create trigger translations_version before update on translations
  for each row execute function bump_translation_version();

-- Search (GET /v1/keys?search=, the portal's editor): a case-insensitive substring of any value.
-- No index can serve "%text%" without pg_trgm, which not every Postgres this runs on has (the
-- embedded PGlite loads no extension), so the search scans the project's values once. Lower-casing
-- 50,000 values per search was most of its time (ILIKE folds both sides of every comparison); this
-- column is folded once, when the value is written, and the scan is a plain LIKE over it (key names
-- alike: the listing reads them from the live-name index's rows). Measured
-- in docs/portal.md, "How the editor stays fast".
alter table translations add column value_folded text generated always as (lower(value)) stored;
alter table translation_keys add column key_folded text generated always as (lower(key)) stored;
