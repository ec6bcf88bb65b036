-- CreateEnum
CREATE TYPE "RailOperationStatus" AS ENUM ('pending', 'settled', 'declined');

-- CreateEnum
CREATE TYPE "KyaVerificationStatus" AS ENUM ('verified', 'rejected');

-- AlterEnum
ALTER TYPE "PaymentIntentStatus" ADD VALUE 'cancelled';

-- DropIndex
DROP INDEX "ledger_transactions_payment_intent_id_idx";

-- AlterTable
ALTER TABLE "agents" ALTER COLUMN "kya_tier" SET DEFAULT 'basic';

-- AlterTable
ALTER TABLE "payment_intents" ADD COLUMN     "policy_decision" JSONB,
ADD COLUMN     "released_at" TIMESTAMPTZ(3),
ADD COLUMN     "reserved_at" TIMESTAMPTZ(3),
ADD COLUMN     "settled_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "policies" ADD COLUMN     "payment_intent_id" UUID,
ADD COLUMN     "superseded_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "next_attempt_at" TIMESTAMPTZ(3),
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "description" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "rail_operations" (
    "id" UUID NOT NULL,
    "payment_intent_id" UUID NOT NULL,
    "rail" "PaymentRail" NOT NULL,
    "reference" TEXT NOT NULL,
    "status" "RailOperationStatus" NOT NULL DEFAULT 'pending',
    "sandbox" BOOLEAN NOT NULL DEFAULT true,
    "decline_code" TEXT,
    "decline_message" TEXT,
    "settle_after" TIMESTAMPTZ(3),
    "settled_at" TIMESTAMPTZ(3),
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rail_operations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_events" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "payment_intent_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery_attempts" (
    "id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status_code" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "error" TEXT,
    "succeeded" BOOLEAN NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "kya_verifications" (
    "id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "from_tier" "KyaTier" NOT NULL,
    "to_tier" "KyaTier" NOT NULL,
    "status" "KyaVerificationStatus" NOT NULL,
    "method" TEXT NOT NULL DEFAULT 'sandbox',
    "evidence" JSONB NOT NULL,
    "reason" TEXT,
    "requested_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "kya_verifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "rail_operations_payment_intent_id_key" ON "rail_operations"("payment_intent_id");

-- CreateIndex
CREATE UNIQUE INDEX "rail_operations_reference_key" ON "rail_operations"("reference");

-- CreateIndex
CREATE INDEX "payment_events_owner_id_created_at_idx" ON "payment_events"("owner_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "payment_events_payment_intent_id_type_key" ON "payment_events"("payment_intent_id", "type");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_attempts_delivery_id_attempt_key" ON "webhook_delivery_attempts"("delivery_id", "attempt");

-- CreateIndex
CREATE INDEX "kya_verifications_agent_id_created_at_idx" ON "kya_verifications"("agent_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ledger_transactions_payment_intent_id_type_key" ON "ledger_transactions"("payment_intent_id", "type");

-- CreateIndex
CREATE INDEX "payment_intents_agent_id_reserved_at_idx" ON "payment_intents"("agent_id", "reserved_at");

-- CreateIndex
CREATE INDEX "policies_payment_intent_id_idx" ON "policies"("payment_intent_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "policies" ADD CONSTRAINT "policies_payment_intent_id_fkey" FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rail_operations" ADD CONSTRAINT "rail_operations_payment_intent_id_fkey" FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_payment_intent_id_fkey" FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "kya_verifications" ADD CONSTRAINT "kya_verifications_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------
-- Hand-written guards (see prisma/README.md, "Guards in the database")
-- ---------------------------------------------------------------------------------------

ALTER TABLE "webhook_delivery_attempts"
  ADD CONSTRAINT "webhook_delivery_attempts_attempt_positive" CHECK ("attempt" >= 1),
  ADD CONSTRAINT "webhook_delivery_attempts_latency_not_negative" CHECK ("latency_ms" >= 0);

ALTER TABLE "kya_verifications"
  ADD CONSTRAINT "kya_verifications_raises_tier" CHECK ("to_tier" > "from_tier");

-- What happened stays as it happened: events, delivery attempts and KYA verifications are
-- records, never edited.
CREATE TRIGGER "payment_events_append_only" BEFORE UPDATE OR DELETE ON "payment_events"
  FOR EACH ROW EXECUTE FUNCTION "purser_refuse_change"();
CREATE TRIGGER "webhook_delivery_attempts_append_only" BEFORE UPDATE OR DELETE ON "webhook_delivery_attempts"
  FOR EACH ROW EXECUTE FUNCTION "purser_refuse_change"();
CREATE TRIGGER "kya_verifications_append_only" BEFORE UPDATE OR DELETE ON "kya_verifications"
  FOR EACH ROW EXECUTE FUNCTION "purser_refuse_change"();

-- ---------------------------------------------------------------------------------------
-- Realtime: {topic: 'intents', owner_id, intent_id, status} on every intent change, so the
-- web app redraws an intent's live flow (docs/realtime.md).
-- ---------------------------------------------------------------------------------------

CREATE FUNCTION "purser_notify_payment_intent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('purser_events', json_build_object(
    'topic', 'intents', 'owner_id', NEW."owner_id", 'intent_id', NEW."id", 'status', NEW."status")::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "payment_intents_notify" AFTER INSERT OR UPDATE ON "payment_intents"
  FOR EACH ROW EXECUTE FUNCTION "purser_notify_payment_intent"();
