-- Translation memory follows the values (migration 014) once per statement, not once per row.
--
-- memory_sources_follow() ran for every row written to translations, and asked for the row's
-- project (its source language and account) each time: a plpgsql call and a query per value, in
-- every language, although only the source language's values are memory. An import of 10,000 new
-- values spent 0.2-0.6 s of its one INSERT there (PostgreSQL 15, measured with EXPLAIN ANALYZE and
-- with the two trigger sets side by side: the INSERT took 0.83-1.24 s with the row trigger, 0.67-0.77 s
-- with these). Now each statement's rows reach memory_sources through one join with projects, over
-- the statement's transition table. Tried twice before and not kept (docs/decisions.md, "Memory has
-- statistics and a short pending list"): a single-row write pays 11-22 us more. Plain PUTs now come
-- in batched statements, and on the seed's mix (a key and its three values at a time, 16 in flight)
-- PostgreSQL spent less CPU with these triggers than with the row trigger (median 3.49 s against
-- 3.87 s for 8,000 requests).
--
-- Postgres allows transition tables only on triggers of one event and without a column list, so
-- there are three triggers, and the update one fires on any UPDATE, not only of `value`: its upsert
-- writes nothing when the text and language are unchanged, as before. A row's language never
-- changes in place (it is part of the primary key's meaning), so the new rows say all that counts.
drop trigger translations_memory_sources on translations;
drop function memory_sources_follow();

create function memory_sources_written() returns trigger language plpgsql as $$
begin
  insert into memory_sources (key_id, account_id, project_id, language, value)
  select w.key_id, p.account_id, w.project_id, w.language, w.value
  from written w join projects p on p.id = w.project_id and p.source_language = w.language
  -- One order for every writer: two statements upserting the same memory rows lock them alike.
  order by w.key_id
  on conflict (key_id) do update set value = excluded.value, language = excluded.language
    where memory_sources.value is distinct from excluded.value or memory_sources.language is distinct from excluded.language;
  return null;
end $$;

create function memory_sources_removed() returns trigger language plpgsql as $$
begin
  delete from memory_sources m using removed r where m.key_id = r.key_id and m.language = r.language;
  return null;
end $$;

create trigger translations_memory_sources_insert after insert on translations
  referencing new table as written for each statement execute function memory_sources_written();
create trigger translations_memory_sources_update after update on translations
  referencing new table as written for each statement execute function memory_sources_written();
create trigger translations_memory_sources_delete after delete on translations
  referencing old table as removed for each statement execute function memory_sources_removed();
