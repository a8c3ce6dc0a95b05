-- Soft-deleted keys are kept (the portal's Trash restores them), and both indexes of
-- translation_keys that lead with project_id cover live keys only. Every read of one project's
-- deleted keys (the Trash page, a group's restore and its check) therefore read every key of every
-- project of the installation: its cost grew with the whole table, not with the project's trash.
-- Only keys being deleted or restored write to it.
create index translation_keys_deleted_idx on translation_keys (project_id, group_name, deleted_at) where deleted_at is not null;
