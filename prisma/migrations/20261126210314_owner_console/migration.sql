-- DropIndex
DROP INDEX "payment_intents_owner_id_created_at_idx";

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "paused_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "budget_alerts" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "threshold" INTEGER NOT NULL,
    "period" TEXT NOT NULL,
    "spent" BIGINT NOT NULL,
    "limit" BIGINT NOT NULL,
    "currency" "Currency" NOT NULL,
    "payment_intent_id" UUID,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "budget_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "budget_alerts_owner_id_created_at_idx" ON "budget_alerts"("owner_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "budget_alerts_agent_id_scope_threshold_period_key" ON "budget_alerts"("agent_id", "scope", "threshold", "period");

-- CreateIndex
CREATE INDEX "audit_events_subject_seq_idx" ON "audit_events"("subject", "seq");

-- CreateIndex
CREATE INDEX "payment_intents_owner_id_created_at_id_idx" ON "payment_intents"("owner_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "payment_intents_owner_id_status_created_at_id_idx" ON "payment_intents"("owner_id", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "payment_intents_agent_id_created_at_id_idx" ON "payment_intents"("agent_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written: a budget alert announces itself to the owner's live console (docs/realtime.md),
-- like the other realtime topics. Ids only, never amounts.
CREATE FUNCTION "purser_notify_budget_alert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('purser_events', json_build_object(
    'topic', 'budget_alerts', 'owner_id', NEW."owner_id", 'agent_id', NEW."agent_id", 'id', NEW."id")::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "budget_alerts_notify" AFTER INSERT ON "budget_alerts"
  FOR EACH ROW EXECUTE FUNCTION "purser_notify_budget_alert"();
