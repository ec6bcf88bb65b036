-- CreateTable
CREATE TABLE "channel_vouchers" (
    "id" UUID NOT NULL,
    "rail_operation_id" UUID NOT NULL,
    "payment_intent_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "cumulative" BIGINT NOT NULL,
    "resource" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_vouchers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "channel_vouchers_payment_intent_id_created_at_idx" ON "channel_vouchers"("payment_intent_id", "created_at");

-- CreateIndex
CREATE INDEX "channel_vouchers_agent_id_created_at_idx" ON "channel_vouchers"("agent_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "channel_vouchers_rail_operation_id_cumulative_key" ON "channel_vouchers"("rail_operation_id", "cumulative");

-- CreateIndex
CREATE UNIQUE INDEX "channel_vouchers_agent_id_idempotency_key_key" ON "channel_vouchers"("agent_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "channel_vouchers" ADD CONSTRAINT "channel_vouchers_rail_operation_id_fkey" FOREIGN KEY ("rail_operation_id") REFERENCES "rail_operations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_vouchers" ADD CONSTRAINT "channel_vouchers_payment_intent_id_fkey" FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
