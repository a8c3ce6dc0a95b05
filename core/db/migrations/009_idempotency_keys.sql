-- Idempotency-Key on the writes that create (docs/operations.md, "Retrying writes"): the first
-- answer to a request, kept 24 hours and replayed to a retry that sends the same key. A row is
-- inserted in the write's own transaction, so it commits if and only if the write does: a retry
-- after a connection lost around COMMIT finds either both or neither.
create table idempotency_keys (
  -- The API key's project, or 'admin' for the admin API: one caller's keys never meet another's.
  scope text not null,
  key text not null,
  -- SHA-256 of the method, path and body: the same key with another request is refused.
  fingerprint text not null,
  status int not null,
  body text not null,
  created_at timestamptz not null default now(),
  primary key (scope, key)
);
-- Expired rows are deleted in batches by age.
create index idempotency_keys_created_idx on idempotency_keys (created_at);
