-- API keys get a label, a last-use time and a kind (issues 15 and 16), and accounts an unlimited
-- plan for self-hosted servers.
--
-- kind: 'live' keys (key_live_…) do everything /v1 offers; 'delivery' keys (delivery_…) only read
-- the cached endpoints, optionally only from some browser origins and for some languages (null: no
-- restriction). The prefix tells the kind before any lookup; the column makes the database agree.
alter table api_keys
  add column kind text not null default 'live' check (kind in ('live', 'delivery')),
  add column name text check (name is null or length(name) between 1 and 100),
  -- The key's last four characters, to tell keys apart in lists; never enough to use one.
  add column last_four text,
  -- Written at most about once a minute per key and process (core/auth/last-used.ts).
  add column last_used_at timestamptz,
  add column allowed_origins text[],
  add column allowed_languages text[],
  add constraint api_keys_restrictions_delivery_only
    check (kind = 'delivery' or (allowed_origins is null and allowed_languages is null));

-- The admin listings page by (created_at, id).
create index accounts_created_idx on accounts (created_at, id);
drop index projects_account_idx;
create index projects_account_idx on projects (account_id, created_at, id);
drop index api_keys_project_idx;
create index api_keys_project_idx on api_keys (project_id, created_at, id);

alter table accounts drop constraint accounts_plan_check;
alter table accounts add constraint accounts_plan_check check (plan in ('free', 'solo', 'team', 'business', 'unlimited'));
