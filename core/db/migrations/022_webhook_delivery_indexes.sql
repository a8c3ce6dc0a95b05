-- Webhook deliveries: claimed fairly, and pruned.
--
-- The webhook worker claims deliveries fairly (core/webhooks/attempt-delivery.ts): each endpoint's
-- oldest due deliveries, up to what its attempts in flight leave of its share, and no project more
-- than its share of the attempts in flight. Two reads serve that on every claim:
-- an endpoint's pending deliveries in the order they are due (the only index by endpoint was by
-- creation, over every delivery it ever had, sent ones included), and the attempts in flight, which
-- are the few rows holding a lease (a lease is cleared when its attempt is recorded).
create index webhook_deliveries_endpoint_due_idx on webhook_deliveries (endpoint_id, next_attempt_at) where status = 'pending';
create index webhook_deliveries_leased_idx on webhook_deliveries (endpoint_id, project_id) where lease_until is not null;
-- Finished deliveries are pruned oldest first once past WEBHOOKS_RETENTION_DAYS
-- (core/webhooks/prune-deliveries.ts): without an index, every prune read the whole table.
create index webhook_deliveries_finished_idx on webhook_deliveries (created_at) where status <> 'pending';
