-- Outdated values (docs/decisions.md, "Outdated values: the source changed after the translation").
-- A value is outdated when its key's value in the project's source language got a new text after the
-- one this value was written against. Two numbers per value, from the versions' sequence (migration
-- 010), whose order is the order texts were written in:
-- - text_rev: the number of this value's current text, given by the trigger below whenever the text
--   changes (and by the default to a new value), so that every path that writes a text keeps it;
-- - source_rev: the text_rev of the key's source value this value's text was written against, or
--   marked up to date with. Each writer sets it in its own statement, from the source value its
--   statement sees committed, or (the portal's editor) the one its page showed: a source text still
--   being written when a translation is saved is not the one that translation read.
-- A value is outdated when source.text_rev > value.source_rev (core/translations/outdated.ts). A
-- number, not a time: a transaction's now() is when it began, and a long import of the source file
-- begun before a translator's save would commit a "newer" text stamped older than that save.
-- A status change alone, or the same text written again, moves neither: a CI push of an unchanged
-- file must not clear the mark a reviewer is meant to see.
-- Values written before this migration have neither (null, read as 0): none is outdated at first,
-- since no earlier source change can be known. Nullable columns without a stored default: adding
-- them rewrites no row; the default applies to rows inserted from now on.
alter table translations add column text_rev bigint;
alter table translations alter column text_rev set default nextval('translation_version_seq');
alter table translations add column source_rev bigint;

create or replace function bump_translation_version() returns trigger language plpgsql as $$
begin
  if new.value is distinct from old.value or new.status is distinct from old.status then
    new.version := nextval('translation_version_seq');
  else
    new.version := old.version;
  end if;
  if new.value is distinct from old.value then
    new.text_rev := new.version;
  end if;
  return new;
end $$;
