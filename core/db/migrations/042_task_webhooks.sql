-- Task webhooks (docs/decisions.md, "Tasks"): tms sends no email, so the chat channel or the tool a
-- team already reads is how an assignee hears of their work. task.created (the task, its assignees
-- and due day), task.assigned (people added to a task afterwards, by a PATCH of its assignees) and
-- task.completed (marked done). The trigger of migrations 013, 027, 030, 033 and 040, unchanged but
-- for those cases: a migration replaces the function whole.
create or replace function webhook_outbox_capture() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (event_id, project_id, webhook_type)
  select e.id, e.project_id, t.webhook_type
  from new_events e
  cross join lateral (
    select case
        when e.type = 'cache.built' then 'cache.rebuilt'
        when e.type in ('language.added', 'language.removed', 'comment.added', 'comment.resolved', 'task.created', 'task.completed') then e.type
        when e.type = 'key.tagged' then null
        when e.type like 'translation.%' or e.type like 'key.%' or e.type like 'group.%' then 'translations.changed'
      end as webhook_type
    union all
    select 'translations.changed'
    where e.type = 'language.removed'
      and case when jsonb_typeof(e.before -> 'values') = 'number' then (e.before ->> 'values')::numeric > 0 else false end
    union all
    -- Any change of a task that named its assignees (the dispatch sends only those added).
    select 'task.assigned'
    where e.type like 'task.%' and e.type <> 'task.created' and jsonb_typeof(e.after -> 'assignees') = 'array'
  ) t
  where e.project_id is not null and t.webhook_type is not null
    and exists (select 1 from webhook_endpoints w
                where w.project_id = e.project_id and w.enabled and t.webhook_type = any (w.events))
  order by e.id;
  return null;
end
$$;
