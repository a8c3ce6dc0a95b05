-- A comment can be resolved (docs/decisions.md, "Resolving comments"): the question answered, the
-- remark acted on. It stays in the thread, marked; reopening clears the mark. resolved_by_type and
-- resolved_by_id name who resolved it, as author_type/author_id name who wrote it; the three are
-- set together or not at all.
alter table value_comments
  add column resolved_at timestamptz,
  add column resolved_by_type text check (resolved_by_type in ('user', 'api_key')),
  add column resolved_by_id uuid,
  add constraint value_comments_resolution_check check (
    (resolved_at is null and resolved_by_type is null and resolved_by_id is null)
    or (resolved_at is not null and resolved_by_type is not null and resolved_by_id is not null));
-- The keys with open comments in a language (the listing's open_comments filter, the editor's
-- "Open comments"): a project's open comments are few beside its resolved ones.
create index value_comments_open_idx on value_comments (project_id, language, key_id) where resolved_at is null;
