-- Removing a language deletes its values: a translations.changed subscriber is told, as for any
-- other change of values. The trigger of migration 013, unchanged but for one more outbox row: a
-- language.removed whose removal deleted values (its before.values, a count, above 0) is queued as
-- language.removed and as translations.changed (gathered into the project's window, naming the
-- language, with keys_truncated: its keys are not listed; core/webhooks/dispatch-outbox.ts).
create or replace function webhook_outbox_capture() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (event_id, project_id, webhook_type)
  select e.id, e.project_id, t.webhook_type
  from new_events e
  cross join lateral (
    select case
        when e.type = 'cache.built' then 'cache.rebuilt'
        when e.type in ('language.added', 'language.removed') then e.type
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
