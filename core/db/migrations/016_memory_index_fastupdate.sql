-- Translation memory reads before it grows (issue 17): the trigram GIN index of memory_sources
-- writes each new source straight into the index instead of a pending list. With fastupdate on (the
-- default) every suggestion scans the pending list linearly, up to 4 MB of it, until a vacuum
-- flushes it, and where autovacuum is off (many CI and some managed setups; PGlite never runs it)
-- that is until the list overflows: measured over 100,000 sources, the median suggestion took 22 ms
-- with the list and 14 ms without. The cost moves to source-language writes, which are rare next to
-- suggestions and bounded (one key's trigrams per value).
alter index memory_sources_value_trgm_idx set (fastupdate = off);
select gin_clean_pending_list('memory_sources_value_trgm_idx'::regclass);
