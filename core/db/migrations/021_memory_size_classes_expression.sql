-- Translation memory's size classes (migration 020) computed by an expression in the column itself,
-- not by a SQL function. Every value written in a project's source language reaches memory_sources
-- one row at a time (memory_sources_follow(), a trigger on translations): each of those INSERTs starts
-- its own executor, which prepares the column's generation expression again. Postgres puts a SQL
-- function's body in place of the call only where its rules allow, and they refused
-- memory_size_classes() (declared strict, with coalesce, which is not strict, in its body), so each
-- row ran it as a function call, its body parsed and planned anew: 74-77 us per source written against 25-28 without the column, measured with
-- 5,000 single-row INSERTs on PostgreSQL 15. An import of 10,000 new keys in the source language
-- took 0.6-0.8 s longer than before 020 (1.37-1.43 s -> 1.99-2.17 s, alternated runs of the two
-- versions in one hour); 020's own figure (7.5 us) was measured with one INSERT of many rows, where
-- the function is prepared once. The same classes as an expression of the column: 38-43 us per
-- single-row INSERT, show_trgm's own trigrams included.
--
-- The same classes as 020's, with cardinality() (0 for the empty array of an empty text) in place of
-- coalesce(array_length(...), 0). A column expression holds the function's identity, not its name,
-- and pg_dump writes it schema-qualified: a dump restores whatever schema pg_trgm is in.
-- PostgreSQL 15 cannot change a generated column's expression in place, so the column and its index
-- are made again (the table is rewritten under its lock, as in 020).
alter table memory_sources drop column size_classes;

alter table memory_sources add column size_classes int[] not null generated always as (
  ('{4,6,8,12,16,24,32,48,64}'::int[])[width_bucket(cardinality(show_trgm(value)) - 1, '{4,6,8,12,16,24,32,48,64}'::int[]) + 1 :]
) stored;

create index memory_sources_account_size_trgm_idx on memory_sources
  using gin (account_id, size_classes, value gin_trgm_ops) with (fastupdate = on, gin_pending_list_limit = 256);

drop function memory_size_classes(text);
