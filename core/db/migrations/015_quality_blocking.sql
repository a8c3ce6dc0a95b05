-- Quality checks that block approval (issue 17): per project, the names of the checks of
-- core/quality/check-translation.ts whose warnings make an approval a 422 (PUT with status approved,
-- bulk status to approved, an import as approved). Empty (the default): every check only warns.
-- Validated by the project update against the known checks.
alter table projects add column quality_blocking text[] not null default '{}';
