-- Outdated values (docs/decisions.md, "Outdated values: the source changed after the translation").
-- A value is outdated when its key's value in the project's source language got a new text after
-- this value's text was last written or marked up to date. text_at is that moment, per value:
-- - a value's text written (insert, or an update that changes the text): the writing transaction's
--   start, set here by the trigger every writer already passes through (migration 010), so that every
--   path (the PUT, imports, Translate missing, a revert, paths written later) keeps it;
-- - a value marked up to date (core/translations/mark-up-to-date.ts): set by that statement;
-- - a status change alone, or a write of the same text: unchanged. A CI push of an unchanged file
--   must not clear the mark a reviewer is meant to see.
-- Existing values take the moment of this migration: none is outdated at first, since no earlier
-- source change can be known. The default is evaluated once (now() is stable), so adding the column
-- rewrites no row.
alter table translations add column text_at timestamptz not null default now();

create or replace function bump_translation_version() returns trigger language plpgsql as $$
begin
  if new.value is distinct from old.value or new.status is distinct from old.status then
    new.version := nextval('translation_version_seq');
  else
    new.version := old.version;
  end if;
  if new.value is distinct from old.value then
    new.text_at := now();
  end if;
  return new;
end $$;
