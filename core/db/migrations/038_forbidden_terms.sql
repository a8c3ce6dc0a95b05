-- Forbidden glossary terms (docs/decisions.md, "Forbidden terms"): a word the product must not use,
-- as Lokalise's "forbidden" terms and a term base's deprecated terms (TBX administrativeStatus).
-- Its spelling must not appear in the source language's values, and each of its translations not in
-- that language's values: the quality check forbidden_terms warns, and blocks approval where the
-- project makes it blocking. A forbidden term kept as written (translatable false: a competitor's
-- name) is the word not to use in every language.
alter table glossary_terms add column forbidden boolean not null default false;
-- Every write of a value in a project with a glossary asks whether it has forbidden terms, and the
-- checks read them: a project's few forbidden terms are found without reading its whole glossary.
create index glossary_terms_forbidden_idx on glossary_terms (project_id) where forbidden;
