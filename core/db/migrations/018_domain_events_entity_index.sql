-- A value's History reads its own events (entity 'translation', '<key id>/<language>') and the
-- language-wide writes after them (entity 'language'), newest first. The only index was the
-- project's (project_id, id): each History page walked the project's events from the newest until it
-- had found the value's, which for a value written long ago is every event the project ever had (15 ms
-- at 30,000 events, growing with every write and, since per-value import events, with every import).
-- With this index a History page reads the value's own events only.
create index domain_events_entity_idx on domain_events (project_id, entity_type, entity_id, id) where project_id is not null;
