-- Tags change nothing served (docs/decisions.md, "Tags on keys"): a key.tagged event (a bulk
-- tagging, an import's tag, a PATCH of tags alone) is no translations.changed. The trigger of
-- migrations 013, 027 and 030, unchanged but for that one case.
create or replace function webhook_outbox_capture() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (event_id, project_id, webhook_type)
  select e.id, e.project_id, t.webhook_type
  from new_events e
  cross join lateral (
    select case
        when e.type = 'cache.built' then 'cache.rebuilt'
        when e.type in ('language.added', 'language.removed', 'comment.added') then e.type
        when e.type = 'key.tagged' then null
        when e.type like 'translation.%' or e.type like 'key.%' or e.type like 'group.%' then 'translations.changed'
      end as webhook_type
    union all
    select 'translations.changed'
    where e.type = 'language.removed'
      and case when jsonb_typeof(e.before -> 'values') = 'number' then (e.before ->> 'values')::numeric > 0 else false end
  ) t
  where e.project_id is not null and t.webhook_type is not null
    and exists (select 1 from webhook_endpoints w
                where w.project_id = e.project_id and w.enabled and t.webhook_type = any (w.events))
  order by e.id;
  return null;
end
$$;
