-- comment.resolved webhooks (docs/decisions.md, "Comments on values"): a question answered or a
-- remark acted on is sent to the endpoints that subscribe to it, so the chat channel that heard of
-- the comment hears it is done. The trigger of migrations 013, 027, 030 and 033, unchanged but for
-- that one case. A reopened comment is not announced: it is open again, as comment.added said it was.
create or replace function webhook_outbox_capture() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (event_id, project_id, webhook_type)
  select e.id, e.project_id, t.webhook_type
  from new_events e
  cross join lateral (
    select case
        when e.type = 'cache.built' then 'cache.rebuilt'
        when e.type in ('language.added', 'language.removed', 'comment.added', 'comment.resolved') then e.type
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
