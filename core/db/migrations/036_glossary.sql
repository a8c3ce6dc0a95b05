-- A project's glossary (docs/decisions.md, "Glossary"): the terms a product uses (a feature's name,
-- a brand, a word with one agreed translation) and how each is said in each language, as Lokalise's
-- and Tolgee's glossaries and Phrase's term bases keep them. The editor shows the terms a key's
-- source text holds beside it; the API and tms mcp list them.
-- - term_folded: the term in NFC lower case as JavaScript folds it (core/glossary/fold.ts), so that
--   uniqueness, search and order are the same on every database (PostgreSQL's lower() follows the
--   database's locale, and the embedded database's is C: it would not fold "Ü").
-- - translatable false: the term is kept as written in every language (a brand, a product name).
-- - case_sensitive: the term is found only as written ("Apple" the brand, not "apple" the fruit).
create table glossary_terms (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  term text not null check (char_length(term) between 1 and 200),
  term_folded text not null,
  description text not null default '' check (char_length(description) <= 1000),
  case_sensitive boolean not null default false,
  translatable boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One term per spelling in a project; also the listing's order and its keyset.
create unique index glossary_terms_folded_idx on glossary_terms (project_id, term_folded collate "C");

-- How a term is said in one of the project's languages. Removing the language removes its
-- translations, as it removes its values (the foreign key to project_languages).
create table glossary_term_translations (
  term_id uuid not null references glossary_terms (id) on delete cascade,
  project_id uuid not null,
  language text not null,
  text text not null check (char_length(text) between 1 and 200),
  text_folded text not null,
  primary key (term_id, language),
  foreign key (project_id, language) references project_languages (project_id, code) on delete cascade
);
create index glossary_term_translations_language_idx on glossary_term_translations (project_id, language);
