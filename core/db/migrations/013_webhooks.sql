-- Webhooks (issue 16): endpoints a project registers, an outbox filled in the same transaction as
-- the change it announces, and the deliveries (one per endpoint and event) with their retry state.

create table webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  url text not null,
  description text,
  events text[] not null,
  -- whsec_<base64>: kept as is, since signing needs the secret itself (docs/decisions.md, "Webhooks").
  secret text not null,
  enabled boolean not null default true,
  -- Why it is off: 'failing' (disabled by tms after failing continuously) or 'manual'.
  disabled_reason text check (disabled_reason in ('failing', 'manual')),
  disabled_at timestamptz,
  -- First failed attempt since the last success: the endpoint is disabled once this is old enough.
  failing_since timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_project_idx on webhook_endpoints (project_id, created_at);

-- Domain events a webhook announces, captured by the trigger below while the write's transaction is
-- open: a write and its outbox row commit or roll back together. The worker turns rows into
-- deliveries (translations.changed gathered per project for a few seconds) and deletes them.
create table webhook_outbox (
  id bigint generated always as identity primary key,
  event_id bigint not null,
  project_id uuid not null,
  webhook_type text not null,
  created_at timestamptz not null default now()
);
create index webhook_outbox_type_idx on webhook_outbox (webhook_type, project_id, id);

create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
  project_id uuid not null,
  -- The webhook-id header: the same for every attempt and for a replay of this message.
  message_id text not null,
  event_type text not null,
  -- The exact bytes signed and sent, so every attempt and replay sends the same body.
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz default now(),
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  lease_owner text,
  lease_until timestamptz,
  -- SQS mode: when the queue is due to hand the delivery out (null: not in the queue); see
  -- core/adapters/webhook-queue-sqs.ts.
  queued_at timestamptz,
  replay_of uuid,
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc);

-- One statement-level trigger for every way an event is written: the batched insert of
-- core/events/record-events.ts and the hot single-statement writes (put/delete of one value, key
-- creation) that insert their event themselves. Projects with no enabled endpoint wanting the event
-- pay one index probe per statement and get no row.
create function webhook_outbox_capture() returns trigger language plpgsql as $$
begin
  insert into webhook_outbox (event_id, project_id, webhook_type)
  select e.id, e.project_id, t.webhook_type
  from new_events e
  cross join lateral (select case
      when e.type = 'cache.built' then 'cache.rebuilt'
      when e.type in ('language.added', 'language.removed') then e.type
      when e.type like 'translation.%' or e.type like 'key.%' or e.type like 'group.%' then 'translations.changed'
    end as webhook_type) t
  where e.project_id is not null and t.webhook_type is not null
    and exists (select 1 from webhook_endpoints w
                where w.project_id = e.project_id and w.enabled and t.webhook_type = any (w.events))
  order by e.id;
  return null;
end
$$;

create trigger domain_events_webhook_outbox after insert on domain_events
  referencing new table as new_events
  for each statement execute function webhook_outbox_capture();
