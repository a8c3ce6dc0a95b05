-- The editor's tag filter lists the project's tags with their keys (core/keys/list-tags.ts) on every
-- page it shows, as it lists the groups. Without an index that list read every live key of the
-- project (planned as a sequential scan: of the whole table) for a list most projects leave empty:
-- 1,100 rows for a page of a 1,000-key project without a tag (test/portal/page-costs.test.ts). This
-- index holds tagged live keys only: a project without tags reads none, one with tags its tagged
-- keys. Only writes of tagged keys (or of a key's tags, or a tagged key's deletion) write to it.
-- (Migration 031 left tags unindexed for the tag filter itself: that still walks the listing's index.)
create index translation_keys_tagged_idx on translation_keys (project_id) where deleted_at is null and cardinality(tags) > 0;
