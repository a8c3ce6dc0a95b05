-- The glossary's folded spellings take no-break spaces and HTML's &nbsp; as spaces (core/glossary/
-- fold.ts; docs/decisions.md, "No-break spaces in glossary terms"): "Acme&nbsp;Cloud" in a value is
-- the term "Acme Cloud". New writes fold so; this refolds what is stored, with the same pattern.
-- A term whose refolded spelling another term of its project already has (both "Acme Cloud" and
-- "Acme<U+00A0>Cloud") keeps its old spelling rather than fail the upgrade: the two stay apart, as
-- they were, until one is renamed or deleted.
with changed as (
  select id, project_id, regexp_replace(term_folded, '&nbsp;|&#160;|&#x0*a0;|[\u00A0\u2007\u2009\u202F]', ' ', 'gi') as folded
  from glossary_terms
  where term_folded ~* '&nbsp;|&#160;|&#x0*a0;|[\u00A0\u2007\u2009\u202F]'
), chosen as (
  select distinct on (project_id, folded) id, folded
  from changed c
  where not exists (select 1 from glossary_terms o where o.project_id = c.project_id and o.term_folded = c.folded)
  order by project_id, folded, id
)
update glossary_terms t set term_folded = chosen.folded from chosen where t.id = chosen.id;

update glossary_term_translations
set text_folded = regexp_replace(text_folded, '&nbsp;|&#160;|&#x0*a0;|[\u00A0\u2007\u2009\u202F]', ' ', 'gi')
where text_folded ~* '&nbsp;|&#160;|&#x0*a0;|[\u00A0\u2007\u2009\u202F]';
