-- Fallback chains (issue 16): per project, language code -> the ordered languages whose values fill
-- its missing keys in built files, e.g. {"de-AT": ["de", "en"]}. Validated by the project update
-- (core/projects/fallbacks.ts): registered languages only, no self reference, no cycles, bounded.
-- Removing a language removes it from every chain in the same transaction.
alter table projects add column fallbacks jsonb not null default '{}'::jsonb;
