-- CreateEnum
CREATE TYPE "PaymentSessionStatus" AS ENUM ('requested', 'open', 'rejected', 'closed');

-- AlterTable
ALTER TABLE "payment_intents" ADD COLUMN     "payment_session_id" UUID;

-- CreateTable
CREATE TABLE "payment_sessions" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "status" "PaymentSessionStatus" NOT NULL,
    "requested_by" "Principal" NOT NULL,
    "reason" TEXT,
    "total_units" BIGINT NOT NULL,
    "per_payment_units" BIGINT,
    "scope" JSONB NOT NULL DEFAULT '{}',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "decision_note" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "closed_reason" TEXT,
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payment_sessions_agent_id_created_at_idx" ON "payment_sessions"("agent_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "payment_sessions_owner_id_status_created_at_idx" ON "payment_sessions"("owner_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "payment_intents_payment_session_id_idx" ON "payment_intents"("payment_session_id");

-- AddForeignKey
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_payment_session_id_fkey" FOREIGN KEY ("payment_session_id") REFERENCES "payment_sessions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------- guards

-- A total within bounds, a positive cap per payment no larger than the total, a known close
-- reason exactly when closed, a decision time on every session an owner answered.
ALTER TABLE "payment_sessions"
  ADD CONSTRAINT "payment_sessions_total_positive" CHECK ("total_units" > 0 AND "total_units" <= 100000000000),
  ADD CONSTRAINT "payment_sessions_per_payment_within_total" CHECK ("per_payment_units" IS NULL OR ("per_payment_units" > 0 AND "per_payment_units" <= "total_units")),
  ADD CONSTRAINT "payment_sessions_closed_reason" CHECK (("status" = 'closed') = ("closed_reason" IS NOT NULL AND "closed_at" IS NOT NULL)),
  ADD CONSTRAINT "payment_sessions_closed_reason_known" CHECK ("closed_reason" IS NULL OR "closed_reason" IN ('spent', 'expired', 'revoked')),
  ADD CONSTRAINT "payment_sessions_decided" CHECK ("status" = 'requested' OR "requested_by" = 'owner' OR "decided_at" IS NOT NULL);

-- An intent is charged to a session of its own agent only.
CREATE FUNCTION "purser_intent_session_of_its_agent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM payment_sessions s WHERE s.id = NEW.payment_session_id AND s.agent_id = NEW.agent_id) THEN
    RAISE EXCEPTION 'payment intent % names payment session % of another agent', NEW.id, NEW.payment_session_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "payment_intents_session_of_its_agent"
  BEFORE INSERT OR UPDATE OF "payment_session_id" ON "payment_intents"
  FOR EACH ROW WHEN (NEW.payment_session_id IS NOT NULL)
  EXECUTE FUNCTION "purser_intent_session_of_its_agent"();
