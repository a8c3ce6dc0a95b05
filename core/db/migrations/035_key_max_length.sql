-- A key's character limit (docs/decisions.md, "Character limits"): the most characters any of its
-- values should have where the app shows it (a button, a push notification, a store listing), as
-- Lokalise's char_limit, Phrase's max_characters_allowed and Tolgee's maxCharLimit. Null: no limit.
-- A quality check (max_length) warns about a longer value and, when a project makes it blocking,
-- refuses its approval; a longer draft is still kept, as a translator's work in progress.
alter table translation_keys add column max_length integer;
alter table translation_keys add constraint translation_keys_max_length_range check (max_length between 1 and 10000);
