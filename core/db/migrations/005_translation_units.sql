-- The monthly translation-unit quota (spec sections 7 and 8): one counter per account and billing
-- cycle (a calendar month, UTC), raised in the same transaction as the import that spends it.
alter table accounts add column translation_unit_allowance integer
  check (translation_unit_allowance is null or translation_unit_allowance >= 0);

create table translation_unit_usage (
  account_id uuid not null references accounts (id) on delete cascade,
  -- The first day of the cycle (UTC).
  cycle_start date not null,
  used bigint not null default 0 check (used >= 0),
  primary key (account_id, cycle_start)
);
