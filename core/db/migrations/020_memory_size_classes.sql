-- Translation memory: a suggestion's candidates bounded by length too. pg_trgm's index finds the
-- sources that share enough of the asked text's trigrams (at similarity 0.5, half of them), but it
-- cannot see how many trigrams a source has, and similarity is shared / (asked + source - shared):
-- a source with more than twice the asked text's trigrams can never reach 0.5. So a short text of
-- common words ("Is to the", 9 trigrams) matched a quarter of a 100,000-text memory in the index,
-- every long text that holds those words, and each was read from the heap and rechecked: 24,705
-- rows rechecked for 441 matches, 130-160 ms, the bench's p99.
--
-- Each source now carries the size classes it falls in: each K of 4, 6, 8, ... 64 with the source's
-- trigram count <= K. A suggestion for a text of n trigrams can only match sources of at most 2n
-- (n / the threshold), so it also asks for the smallest class K >= 2n (core/memory/size-classes.ts);
-- past 64, no class (long texts share half their trigrams with few sources). One class is one index
-- entry, read alongside the trigrams' entries: not a range, which GIN would first gather into a
-- bitmap of every source in it (a band [n/2, 2n] over the count made the median suggestion 70%
-- slower). Measured on PostgreSQL 15 over the bench's texts (100,000 in the account, 100,000 in
-- another, the 200 questions twice): p99 141 -> 75 ms, p50 17.5 -> 17.8; over a memory of
-- 100,000 short UI strings (1-3 words), p50 6.5 -> 6.6 and p99 68 -> 69. The classes are stored, not
-- an index expression: the recheck of each candidate would otherwise compute its trigrams again.
--
-- One expression, no subquery: Postgres inlines it into the column's computation. With a subquery
-- (unnest the classes, keep those >= the count) each source written cost 62 us instead of 7.5 (5.3
-- of them pg_trgm's own trigrams): about 0.6 s of Postgres CPU more per 10,000 source texts
-- imported. The classes from the first at or above the count: width_bucket(count - 1, classes) is
-- how many lie below it.
--
-- show_trgm is named with pg_trgm's schema: a stored column is computed again when a dump is
-- restored, and pg_dump's scripts run with an empty search_path (the function would not be found),
-- while pg_trgm may live outside public (Supabase puts extensions in their own schema).
do $$
begin
  execute format(
    $f$create function memory_size_classes(value text) returns int[] language sql immutable parallel safe strict as
      'select (''{4,6,8,12,16,24,32,48,64}''::int[])[width_bucket(coalesce(array_length(%I.show_trgm(value), 1), 0) - 1, ''{4,6,8,12,16,24,32,48,64}''::int[]) + 1 :]'$f$,
    (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'));
end
$$;

alter table memory_sources add column size_classes int[] not null generated always as (memory_size_classes(value)) stored;

create index memory_sources_account_size_trgm_idx on memory_sources
  using gin (account_id, size_classes, value gin_trgm_ops) with (fastupdate = on, gin_pending_list_limit = 256);
drop index memory_sources_account_trgm_idx;
