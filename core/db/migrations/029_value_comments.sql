-- Comments on a value (docs/decisions.md, "Comments on values"): the thread of one key in one
-- language, where a reviewer says why a translation is not right yet and a translator asks what a
-- source text means. A comment belongs to the slot (key, language), not to a text: it stays when
-- the value is rewritten or deleted, and may come before the first translation.
-- - The key's soft delete hides its comments with it and a restore brings them back; the key's
--   own deletion (a project deleted) removes them (cascade).
-- - The language's removal removes its comments, as it removes its values: the foreign key to
--   project_languages, as translations have, so a comment never names a language the project
--   does not have.
-- - author_type/author_id: who wrote it, as domain_events records an actor ('user' or 'api_key');
--   the name shown is looked up when read, so a renamed API key reads under its new name.
create table value_comments (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  key_id uuid not null references translation_keys (id) on delete cascade,
  language text not null,
  text text not null check (length(text) between 1 and 2000),
  author_type text not null check (author_type in ('user', 'api_key')),
  author_id uuid not null,
  created_at timestamptz not null default now(),
  foreign key (project_id, language) references project_languages (project_id, code) on delete cascade
);
-- The thread of a slot, oldest first (the reads and the per-slot cap); the counts the editor shows.
create index value_comments_slot_idx on value_comments (key_id, language, created_at, id);
-- The cascades from project_languages (a language removed) and projects.
create index value_comments_project_language_idx on value_comments (project_id, language);
