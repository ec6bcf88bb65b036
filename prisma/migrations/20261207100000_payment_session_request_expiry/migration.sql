-- A budget request its owner has not decided by the expiry it asked for closes as expired, with
-- no decision (payment-sessions/close-payment-session.ts): decided_at stays null on that close
-- alone. Every other agent request that left `requested` was decided (granted, rejected, revoked).
ALTER TABLE "payment_sessions" DROP CONSTRAINT "payment_sessions_decided";
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_decided"
  CHECK ("status" = 'requested' OR "requested_by" = 'owner' OR "decided_at" IS NOT NULL
         OR ("status" = 'closed' AND "closed_reason" = 'expired'));
