-- Tags on keys (docs/decisions.md, "Tags on keys"): labels a team gives keys across groups
-- ("release-2.3", "mobile", "needs-context"), to filter the editor, the listing, bulk actions and
-- exports by. A column, not a table: a key's tags are read with the key (one row, no join), and
-- written with it; at most 20 per key, kept sorted and without duplicates by the service.
-- No GIN index: a tag filter reads the project's live keys through the indexes the listing already
-- walks (as the search does), and a GIN index would be one more structure for every key write.
-- (Migration 032 adds a small partial index for the project's tag list.)
alter table translation_keys add column tags text[] not null default '{}';
alter table translation_keys add constraint translation_keys_tags_max check (cardinality(tags) <= 20);
