-- Translation memory's indexes, bounded by the account. The trigram index first: the index of 014
-- held every account's source texts in one trigram index and the suggestion filtered by account
-- after it. A short text of common words ("Is to the") matched tens of thousands of other accounts'
-- rows in the index, each read and rechecked on the heap before being dropped, so one account's
-- suggestions slowed down with every other account's memory. Measured on PostgreSQL 15 with the
-- bench's 100,000 sources in one account and 300,000 in three others: p50 43-49 ms and p99 440-460 ms
-- with the old index, 18-20 ms and 145-190 ms with this one, the same as the account alone (one
-- account alone: no difference either way). btree_gin lets the account id be the index's first
-- column, so the scan itself intersects the account's entries with the trigrams'. The pending list
-- stays as 017 set it.
create extension if not exists btree_gin;
create index memory_sources_account_trgm_idx on memory_sources
  using gin (account_id, value gin_trgm_ops) with (fastupdate = on, gin_pending_list_limit = 256);
drop index memory_sources_value_trgm_idx;

-- Exact matches (machine translation fills from them before calling a provider) had a hash index on
-- the text alone: a common text ("Save", "Cancel") found every account's copy, each then dropped by
-- the account filter. Now the text's md5 (as a uuid: 16 bytes, and any text's length fits, where a
-- btree on the text itself refuses values over about 2.7 kB), then the account; the query compares
-- the text too, so a collision can never give a wrong match. The md5 comes first so that this index
-- serves exact lookups only: led by the account, it would also offer the planner "every source of
-- the account, then the trigram test on each" for a suggestion, a scan of the whole account.
create index memory_sources_md5_account_idx on memory_sources ((md5(value)::uuid), account_id);
drop index memory_sources_value_hash_idx;
