-- Search (GET /v1/keys?search=, the portal's editor) compares text folded once when it is written
-- (migration 010: lower()). lower() is not how people compare text: a value written in NFD (macOS
-- tools write "café" as e + U+0301) was not found by "café" typed in NFC, as every keyboard types
-- it; "STRASSE" did not find "Straße", nor "οδος" "ΟΔΟΣ" (lower() gives the final sigma's capital a
-- medial σ). The fold is now: NFC, lower case, ß as ss, ς as σ, on both sides of the comparison
-- (core/keys/key-filter.ts). Values themselves are stored as written (docs/decisions.md).
-- normalize() needs a UTF-8 database (PGlite's and initdb's default); elsewhere the fold is lower()
-- with the two mappings.
do $$
begin
  if current_setting('server_encoding') = 'UTF8' then
    create function tms_search_fold(text) returns text language sql immutable strict parallel safe
      as $f$ select replace(replace(lower(normalize($1, NFC)), 'ß', 'ss'), 'ς', 'σ') $f$;
  else
    create function tms_search_fold(text) returns text language sql immutable strict parallel safe
      as $f$ select replace(replace(lower($1), 'ß', 'ss'), 'ς', 'σ') $f$;
  end if;
end
$$;

-- A generated column's expression cannot be changed in place before PostgreSQL 17: dropped and
-- added again, which rewrites the table once (the service's start waits for it).
alter table translations drop column value_folded;
alter table translations add column value_folded text generated always as (tms_search_fold(value)) stored;
alter table translation_keys drop column key_folded;
alter table translation_keys add column key_folded text generated always as (tms_search_fold(key)) stored;
