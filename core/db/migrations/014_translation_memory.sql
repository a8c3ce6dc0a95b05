-- Translation memory (issue 17). A project names its source language; every value in that language
-- is a memory source, kept in memory_sources (one row per key) with a trigram index, so that a
-- suggestion is one index search over the account's sources joined to their approved translations.
-- Only source-language values are indexed: a trigram index on every value would slow every write
-- and stop value updates from being HOT.
create extension if not exists pg_trgm;

alter table projects add column source_language text not null default 'en';
-- Existing projects: English when they have it, else their first language.
update projects p set source_language = coalesce(
  (select code from project_languages l where l.project_id = p.id and l.code = 'en'),
  (select code from project_languages l where l.project_id = p.id order by added_at, code limit 1),
  'en');

create table memory_sources (
  key_id uuid primary key references translation_keys (id) on delete cascade,
  account_id uuid not null,
  project_id uuid not null references projects (id) on delete cascade,
  language text not null,
  value text not null
);
create index memory_sources_value_trgm_idx on memory_sources using gin (value gin_trgm_ops);
create index memory_sources_project_idx on memory_sources (project_id);
-- Exact matches (machine translation fills from them first, free): hash, as values may be too long for a btree.
create index memory_sources_value_hash_idx on memory_sources using hash (value);

insert into memory_sources (key_id, account_id, project_id, language, value)
select t.key_id, p.account_id, p.id, t.language, t.value
from translations t join projects p on p.id = t.project_id and t.language = p.source_language;

-- Every path that writes a value (API, import, portal, CLI, language removal) goes through this.
create function memory_sources_follow() returns trigger language plpgsql as $$
declare
  source text;
  account uuid;
begin
  if tg_op = 'DELETE' then
    delete from memory_sources where key_id = old.key_id and language = old.language;
    return null;
  end if;
  select p.source_language, p.account_id into source, account from projects p where p.id = new.project_id;
  if new.language = source then
    insert into memory_sources (key_id, account_id, project_id, language, value)
    values (new.key_id, account, new.project_id, new.language, new.value)
    on conflict (key_id) do update set value = excluded.value, language = excluded.language
      where memory_sources.value is distinct from excluded.value or memory_sources.language is distinct from excluded.language;
  end if;
  return null;
end $$;

create trigger translations_memory_sources
  after insert or update of value or delete on translations
  for each row execute function memory_sources_follow();

-- A new source language: the project's sources are those of the new language.
create function memory_sources_resource() returns trigger language plpgsql as $$
begin
  delete from memory_sources where project_id = new.id;
  insert into memory_sources (key_id, account_id, project_id, language, value)
  select t.key_id, new.account_id, new.id, t.language, t.value
  from translations t where t.project_id = new.id and t.language = new.source_language;
  return null;
end $$;

create trigger projects_memory_sources
  after update of source_language on projects
  for each row when (old.source_language is distinct from new.source_language)
  execute function memory_sources_resource();
