-- Translation memory's trigram index, bounded by the account. The index of 014 held every account's
-- source texts in one trigram index and the suggestion filtered by account after it: a short text of
-- common words ("Is to the") matched tens of thousands of other accounts' rows in the index, each read
-- and rechecked on the heap before being dropped, so one account's suggestions slowed down with every
-- other account's memory. Measured on PostgreSQL 15 with the bench's 100,000 sources in one account
-- and 300,000 in three others: p50 43-49 ms and p99 440-460 ms with the old index, 18-20 ms and
-- 145-190 ms with this one, the same as the account alone (one account alone: no difference either
-- way). btree_gin lets the account id be the index's first column, so the scan itself intersects the
-- account's entries with the trigrams'. The pending list stays as 017 set it.
create extension if not exists btree_gin;
create index memory_sources_account_trgm_idx on memory_sources
  using gin (account_id, value gin_trgm_ops) with (fastupdate = on, gin_pending_list_limit = 256);
drop index memory_sources_value_trgm_idx;
