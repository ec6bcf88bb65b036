-- Hand-written: the health report counts the webhook deliveries still waiting for their
-- receivers every second (server/src/health.ts). A partial index over just those rows keeps
-- that count as cheap as the backlog is small, however many deliveries have been delivered.
-- Prisma's schema cannot express a partial index, hence by hand.

CREATE INDEX "webhook_deliveries_pending" ON "webhook_deliveries" ("created_at") WHERE "status" = 'pending';
