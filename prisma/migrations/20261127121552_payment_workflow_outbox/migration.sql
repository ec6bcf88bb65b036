-- CreateTable
CREATE TABLE "payment_workflow_outbox" (
    "payment_intent_id" UUID NOT NULL,
    "max_retries" INTEGER NOT NULL,
    "webhook_delivery_ids" UUID[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "last_attempt_at" TIMESTAMPTZ(3),

    CONSTRAINT "payment_workflow_outbox_pkey" PRIMARY KEY ("payment_intent_id")
);

-- AddForeignKey
ALTER TABLE "payment_workflow_outbox" ADD CONSTRAINT "payment_workflow_outbox_payment_intent_id_fkey" FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
