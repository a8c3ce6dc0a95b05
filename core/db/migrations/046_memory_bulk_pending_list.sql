-- Translation memory's trigram index takes a large statement's sources through a large pending
-- list, merged once at the statement's end.
--
-- Since migration 017 the index's pending list holds at most 256 kB: a suggestion reads the list
-- linearly, so it must stay short. But an import of 10,000 source values (one INSERT through the
-- statement trigger of migration 044) then fills and merges it again and again, each merge
-- descending the index once per trigram it holds. Measured on PostgreSQL 15 (10,000 new sources
-- into an account holding 30,000, the index alone, runs alternated, medians of 5): 369-393 ms with
-- the 256 kB list, 260-278 ms with a 4 MB one, and 279 ms with a 4 MB list merged in full at the
-- end (gin_clean_pending_list), which leaves the list empty for the suggestions that follow (the
-- 256 kB list leaves up to 256 kB). Without the index: 122-146 ms; with the list off: 0.9-1.3 s.
--
-- A storage parameter of the index would outrank any setting, so the limit moves out of the index
-- into the trigger functions, which are the only writers of memory_sources: each sets it for its
-- own INSERT (`set_config(..., true)`, the transaction's value, put back right after) to 4 MB for
-- a statement of 1,000 rows or more, which is then merged at once if it wrote any source, and to
-- 256 kB for anything smaller, as before. A writer of memory_sources by hand gets the server's own limit (4 MB by
-- default); the next write through a trigger merges what it left past 256 kB.
--
-- gin_clean_pending_list needs the index's owner (as VACUUM does). A role that writes values but
-- does not own the schema skips the merge: its large statement then leaves up to 4 MB for the next
-- write to merge, the state every index with the default limit is in.
alter index memory_sources_account_size_trgm_idx reset (gin_pending_list_limit);

-- Merges the pending list into the index now (waiting for a merge already under way).
create function memory_sources_merge_pending() returns void language plpgsql as $$
begin
  perform gin_clean_pending_list('memory_sources_account_size_trgm_idx'::regclass);
exception when insufficient_privilege then
  null;
end $$;

create or replace function memory_sources_written() returns trigger language plpgsql as $$
declare
  -- One more row than the threshold is enough to know: the transition table is not read to its end.
  bulk boolean := exists (select 1 from written offset 999);
  usual text := current_setting('gin_pending_list_limit');
  sources bigint;
begin
  perform set_config('gin_pending_list_limit', case when bulk then '4MB' else '256kB' end, true);
  insert into memory_sources (key_id, account_id, project_id, language, value)
  select w.key_id, p.account_id, w.project_id, w.language, w.value
  from written w join projects p on p.id = w.project_id and p.source_language = w.language
  -- One order for every writer: two statements upserting the same memory rows lock them alike.
  order by w.key_id
  on conflict (key_id) do update set value = excluded.value, language = excluded.language
    where memory_sources.value is distinct from excluded.value or memory_sources.language is distinct from excluded.language;
  get diagnostics sources = row_count;
  perform set_config('gin_pending_list_limit', usual, true);
  -- A large statement of another language's values wrote no memory: nothing of its own to merge.
  if bulk and sources > 0 then
    perform memory_sources_merge_pending();
  end if;
  return null;
end $$;

-- A new source language: the project's sources are those of the new language, all in one statement.
create or replace function memory_sources_resource() returns trigger language plpgsql as $$
declare
  usual text := current_setting('gin_pending_list_limit');
begin
  delete from memory_sources where project_id = new.id;
  perform set_config('gin_pending_list_limit', '4MB', true);
  insert into memory_sources (key_id, account_id, project_id, language, value)
  select t.key_id, new.account_id, new.id, t.language, t.value
  from translations t where t.project_id = new.id and t.language = new.source_language;
  perform set_config('gin_pending_list_limit', usual, true);
  perform memory_sources_merge_pending();
  return null;
end $$;
