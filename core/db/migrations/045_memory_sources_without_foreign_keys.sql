-- memory_sources keeps no foreign keys of its own (they came with migration 014).
--
-- Its rows are written only by the triggers on translations (migration 044) and projects (014),
-- from translations rows, and removed by the delete trigger on translations. A translations row
-- carries its own foreign keys to its key and to its project's language, checked by the same
-- statement before the trigger copies it, and the key row stays locked (FOR KEY SHARE) to the
-- transaction's end: the two checks memory_sources made again for each source value could never
-- fail. They cost an import of 10,000 source texts about 80-130 ms of its 0.7-0.9 s in the memory
-- trigger (PostgreSQL 15, EXPLAIN ANALYZE of the insert, 7 runs each way, vacuumed between runs).
--
-- Nothing is left to cascade: the service never deletes a key or a project row (keys are soft-deleted
-- and kept for restoring; removing a language deletes its values first). A key, project or account
-- deleted by hand still cascades to its translations, and their delete trigger removes the memory
-- rows with them (test/memory/sources.test.ts).
alter table memory_sources drop constraint if exists memory_sources_key_id_fkey;
alter table memory_sources drop constraint if exists memory_sources_project_id_fkey;
