-- Payment sessions close when spent; payment events name the session that paid; a session may
-- take all the agent's payments, and may set its budget aside.
--
-- all_payments: the owner charged every payment of the agent to the session, not only those that
-- name it (services/intents/create-intent.ts attaches them while it is open).
ALTER TABLE "payment_sessions" ADD COLUMN "all_payments" BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX "payment_sessions_all_payments_open_idx" ON "payment_sessions" ("agent_id") WHERE "status" = 'open' AND "all_payments";

-- reserve: the owner set the budget aside when it opened. reserved_units is what is set aside
-- now, in the agent wallet's hold account (payment-sessions/session-reserve.ts): the hold account
-- holds the payments in flight plus the open sessions' reserves (ledger/verify-ledger.ts).
ALTER TABLE "payment_sessions" ADD COLUMN "reserve" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "payment_sessions" ADD COLUMN "reserved_units" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_reserved_units_check"
  CHECK ("reserved_units" >= 0 AND "reserved_units" <= "total_units" AND ("reserve" OR "reserved_units" = 0));

--
-- purser_capture_payment (migration *_settle_in_one_step) answers one more column: the payment
-- session the captured intent is charged to, so the settle step closes a session its payments
-- have now paid in full (payment-sessions/close-payment-session.ts) without reading the intent
-- again. The function is otherwise the same, statement for statement; a column added to what a
-- function returns needs it dropped and created again.
--
-- purser_intent_view (the intent in payment events) names the session too, as toIntentView does.

CREATE OR REPLACE FUNCTION "purser_intent_view"(p_intent_id uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', i."id",
    'ownerId', i."owner_id",
    'agentId', i."agent_id",
    'createdBy', i."created_by",
    'amount', "purser_dollars"(i."amount"),
    'amountExact', "purser_decimal_string"(i."amount"),
    'currency', i."currency",
    'purpose', i."purpose",
    'merchant', i."merchant",
    'toAddress', i."to_address",
    'category', i."category",
    'kyaTier', i."kya_tier",
    'geography', i."geography",
    'maxRetries', i."max_retries",
    'metadata', CASE WHEN i."metadata" IS NULL OR jsonb_typeof(i."metadata") = 'null' THEN '{}'::jsonb ELSE i."metadata" END,
    'paymentSessionId', i."payment_session_id",
    'rail', coalesce(i."rail"::text, 'ledger'),
    -- paidCallProtocol: a paid call's protocol, MPP when its x402 metadata (with a requirement) says so.
    'protocol', CASE
      WHEN i."rail" IS DISTINCT FROM 'x402-base' THEN NULL
      WHEN jsonb_typeof(i."metadata" -> 'x402') IN ('object', 'array')
           AND jsonb_typeof(i."metadata" -> 'x402' -> 'requirement') IN ('object', 'array')
           AND jsonb_typeof(i."metadata" -> 'x402' -> 'protocol') = 'string'
           AND i."metadata" -> 'x402' ->> 'protocol' = 'mpp' THEN 'mpp'
      ELSE 'x402' END,
    'sandbox', coalesce(i."rail"::text, 'ledger') IN ('solana', 'card', 'bank'),
    'status', i."status",
    'failureCode', i."failure_code",
    'failureMessage', i."failure_message",
    'policyDecision', "purser_policy_decision_view"(i."policy_decision"),
    'approval', CASE WHEN a."id" IS NULL THEN NULL ELSE jsonb_build_object(
      'status', a."status", 'reason', a."reason", 'decidedAt', "purser_iso_time"(a."decided_at"), 'expiresAt', "purser_iso_time"(a."expires_at")) END,
    'workflowId', i."workflow_id",
    'idempotencyKey', i."idempotency_key",
    'expiresAt', "purser_iso_time"(i."expires_at"),
    'reservedAt', "purser_iso_time"(i."reserved_at"),
    'settledAt', "purser_iso_time"(i."settled_at"),
    'createdAt', "purser_iso_time"(i."created_at"),
    'updatedAt', "purser_iso_time"(i."updated_at"))
  FROM "payment_intents" i
  LEFT JOIN "approvals" a ON a."payment_intent_id" = i."id"
  WHERE i."id" = p_intent_id
$$;

DROP FUNCTION "purser_capture_payment"(uuid, timestamptz, timestamptz, timestamptz, int[], text, text, boolean);

CREATE FUNCTION "purser_capture_payment"(
  p_intent_id uuid,
  p_at timestamptz,
  p_window_start timestamptz,
  p_month_start timestamptz,
  p_thresholds int[],
  p_event_type text,
  p_audit_action text,
  p_when_settled boolean
) RETURNS TABLE (
  "outcome" text,
  "message" text,
  "owner_id" uuid,
  "agent_id" uuid,
  "status" text,
  "rail" text,
  "created_at" timestamptz,
  "ledger_transaction_id" uuid,
  "payee" text,
  "held" bigint,
  "paid" bigint,
  "returned" bigint,
  "delivery_ids" uuid[],
  "audit_logged" boolean,
  "reserved_at" timestamptz,
  "policy_decision" jsonb,
  "operation_reference" text,
  "operation_sandbox" boolean,
  "operation_settled_at" timestamptz,
  "payment_session_id" uuid
) LANGUAGE plpgsql AS $$
DECLARE
  v_intent record;
  v_operation record;
  v_payer_name text;
  v_payer_wallet uuid;
  v_payee_wallet uuid;
  v_payee_agent uuid;
  v_facts jsonb := '{}';
  v_outcome text;
  v_message text;
  v_held bigint;
  v_paid bigint;
  v_returned bigint;
  v_hold_account uuid;
  v_payee_account uuid;
  v_accounts uuid[];
  v_amounts bigint[];
  v_posted uuid;
  v_payee text;
  v_alert_deliveries uuid[] := '{}';
  v_event_deliveries uuid[] := '{}';
  v_status text;
  v_audit_logged boolean;
BEGIN
  SELECT i."id", i."owner_id", i."agent_id", i."status"::text AS "status", i."amount", i."currency", i."rail"::text AS "rail",
         i."to_address", i."category", i."purpose", i."created_at", i."reserved_at", i."released_at", i."settled_at", i."policy_decision",
         i."payment_session_id"
    INTO v_intent
    FROM "payment_intents" i WHERE i."id" = p_intent_id FOR UPDATE;
  IF NOT FOUND THEN
    v_outcome := 'not_found';
  ELSE
    SELECT o."rail"::text AS "rail", o."status"::text AS "status", o."reference", o."sandbox", o."settled_at", o."details"
      INTO v_operation
      FROM "rail_operations" o WHERE o."payment_intent_id" = p_intent_id;
  END IF;

  IF v_outcome IS NOT NULL THEN
    NULL;
  ELSIF v_intent."settled_at" IS NOT NULL THEN
    -- A retry of a committed capture: its deliveries are started again, in case the run that
    -- committed them stopped before starting them.
    v_alert_deliveries := "purser_budget_alert_delivery_ids"(p_intent_id, v_intent."owner_id", v_intent."agent_id");
    v_outcome := 'settled_before';
  ELSIF p_when_settled AND (v_intent."status" <> 'processing' OR v_intent."reserved_at" IS NULL OR v_intent."released_at" IS NOT NULL
                            OR v_operation."status" IS DISTINCT FROM 'settled') THEN
    v_outcome := 'not_ready';
  ELSIF v_intent."status" <> 'processing' OR v_intent."reserved_at" IS NULL OR v_intent."released_at" IS NOT NULL THEN
    v_outcome := 'refused';
    v_message := format('Cannot capture payment intent %s: it is %s%s', p_intent_id, v_intent."status",
                        CASE WHEN v_intent."released_at" IS NOT NULL THEN ', released' ELSE '' END);
  ELSE
    SELECT a."name", w."id" INTO v_payer_name, v_payer_wallet
      FROM "agents" a LEFT JOIN "agent_wallets" w ON w."agent_id" = a."id" WHERE a."id" = v_intent."agent_id";
    IF v_payer_wallet IS NULL THEN
      RAISE EXCEPTION 'Cannot capture payment intent %: its agent has no wallet', p_intent_id;
    END IF;
    -- A ledger payment to the address of another agent's wallet is an internal transfer to it.
    IF v_intent."rail" = 'ledger' AND coalesce(v_intent."to_address", '') <> '' THEN
      SELECT w."id", w."agent_id" INTO v_payee_wallet, v_payee_agent
        FROM "agent_wallets" w JOIN "agents" a ON a."id" = w."agent_id"
       WHERE (w."wallet_address" = v_intent."to_address" OR lower(w."evm_wallet_address") = lower(v_intent."to_address"))
         AND a."status" <> 'deleted'
       LIMIT 1;
      IF v_payee_wallet = v_payer_wallet THEN
        v_payee_wallet := NULL;
        v_payee_agent := NULL;
      END IF;
    END IF;

    -- What the rail moved: the hold, or what an x402 settlement moved on chain, as
    -- rail-operations/settlement-facts.ts reads it (a field of the wrong type, and it reads none).
    v_held := v_intent."amount";
    v_paid := v_held;
    IF v_operation."rail" = 'x402-base' AND jsonb_typeof(v_operation."details") = 'object'
       AND (v_operation."details" -> 'network' IS NULL OR jsonb_typeof(v_operation."details" -> 'network') = 'string')
       AND (v_operation."details" -> 'transactionHash' IS NULL OR jsonb_typeof(v_operation."details" -> 'transactionHash') IN ('string', 'null'))
       AND (v_operation."details" -> 'payer' IS NULL OR jsonb_typeof(v_operation."details" -> 'payer') = 'string')
       AND (v_operation."details" -> 'capturedAmount' IS NULL
            OR (jsonb_typeof(v_operation."details" -> 'capturedAmount') = 'string' AND v_operation."details" ->> 'capturedAmount' ~ '^[0-9]+$'))
       AND (v_operation."details" -> 'captureInvariant' IS NULL OR jsonb_typeof(v_operation."details" -> 'captureInvariant') = 'string') THEN
      v_facts := v_operation."details";
    END IF;
    IF v_facts -> 'captureInvariant' IS NOT NULL THEN
      v_message := format('Payment intent %s: %s', p_intent_id, v_facts ->> 'captureInvariant');
    ELSIF v_facts -> 'capturedAmount' IS NOT NULL THEN
      IF (v_facts ->> 'capturedAmount')::numeric <= 0 OR (v_facts ->> 'capturedAmount')::numeric > v_held THEN
        v_message := format('Payment intent %s: the chain moved %s, outside the held %s', p_intent_id, v_facts ->> 'capturedAmount', v_held);
      ELSE
        v_paid := (v_facts ->> 'capturedAmount')::bigint;
      END IF;
    END IF;
    IF v_message IS NOT NULL THEN
      v_outcome := 'invariant';
    END IF;
  END IF;
  IF v_outcome IS NOT NULL AND v_outcome <> 'settled_before' THEN
    RETURN QUERY SELECT v_outcome, v_message, v_intent."owner_id", v_intent."agent_id", v_intent."status", v_intent."rail", v_intent."created_at",
                        NULL::uuid, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::uuid[], NULL::boolean,
                        NULL::timestamptz, NULL::jsonb, NULL::text, NULL::boolean, NULL::timestamptz, v_intent."payment_session_id";
    RETURN;
  END IF;

  IF v_outcome IS NULL THEN
    v_returned := v_held - v_paid;
    -- Lock order: the wallets by id, then their accounts (purser_post_ledger_transaction).
    PERFORM 1 FROM "agent_wallets" w WHERE w."id" IN (v_payer_wallet, v_payee_wallet) ORDER BY w."id" FOR UPDATE;
    v_hold_account := "purser_wallet_account"('hold', v_intent."currency", NULL, v_payer_wallet);
    IF v_payee_wallet IS NOT NULL THEN
      v_payee_account := "purser_wallet_account"('agent', v_intent."currency", NULL, v_payee_wallet);
      v_payee := 'agent:' || v_payee_agent;
    ELSE
      SELECT a."id" INTO STRICT v_payee_account FROM "ledger_accounts" a WHERE a."kind" = 'external' AND a."currency" = v_intent."currency";
      v_payee := 'external';
    END IF;
    v_accounts := ARRAY[v_hold_account, v_payee_account];
    v_amounts := ARRAY[-v_held, v_paid];
    IF v_returned > 0 THEN
      v_accounts := v_accounts || "purser_wallet_account"('agent', v_intent."currency", NULL, v_payer_wallet);
      v_amounts := v_amounts || v_returned;
    END IF;
    v_posted := "purser_post_ledger_transaction"(
      'payment_capture',
      CASE WHEN v_payee_wallet IS NOT NULL THEN 'Payment to agent ' || v_payee_agent ELSE 'Payment to ' || coalesce(v_intent."to_address", 'merchant') END,
      p_intent_id, v_accounts, v_amounts, array_fill(v_intent."currency", ARRAY[cardinality(v_accounts)]));

    -- The agent's history row: completed, for what was paid, and where an on-chain payment settled.
    UPDATE "agent_transactions" t
       SET "status" = 'completed',
           "ledger_transaction_id" = v_posted,
           "amount" = CASE WHEN v_returned > 0 THEN v_paid ELSE t."amount" END,
           "metadata" = CASE WHEN v_operation."rail" IS DISTINCT FROM 'x402-base' THEN t."metadata"
             ELSE CASE WHEN jsonb_typeof(t."metadata") = 'object' THEN t."metadata" ELSE '{}'::jsonb END
               || jsonb_build_object('network', coalesce(v_facts -> 'network', 'null'::jsonb),
                                     'transaction_hash', coalesce(v_facts -> 'transactionHash', 'null'::jsonb),
                                     'payer', coalesce(v_facts -> 'payer', 'null'::jsonb)) END
     WHERE t."payment_intent_id" = p_intent_id AND t."agent_id" = v_intent."agent_id" AND t."type" = 'payment';
    IF v_payee_wallet IS NOT NULL THEN
      INSERT INTO "agent_transactions" ("id", "agent_id", "type", "amount", "currency", "status", "category", "to_address", "description", "metadata", "payment_intent_id", "ledger_transaction_id")
      VALUES ("purser_uuid_v7"(), v_payee_agent, 'payment_received', v_paid, v_intent."currency", 'completed', v_intent."category", v_intent."to_address",
              coalesce(nullif(v_intent."purpose", ''), 'Payment from ' || v_payer_name),
              jsonb_build_object('payment_intent_id', p_intent_id, 'from_agent_id', v_intent."agent_id"), p_intent_id, v_posted);
    END IF;

    -- The intent settled; an upto payment's amount becomes what was paid.
    UPDATE "payment_intents" i
       SET "status" = 'settled', "settled_at" = p_at, "updated_at" = p_at, "amount" = v_paid
     WHERE i."id" = p_intent_id;

    v_alert_deliveries := "purser_record_budget_alerts"(p_intent_id, v_intent."owner_id", v_intent."agent_id", p_at, p_window_start, p_month_start, p_thresholds);
    v_outcome := 'captured';
  END IF;

  SELECT i."status"::text INTO v_status FROM "payment_intents" i WHERE i."id" = p_intent_id;
  IF p_event_type IS NOT NULL THEN
    v_event_deliveries := "purser_emit_payment_event"(v_intent."owner_id", p_intent_id, p_event_type,
                                                      jsonb_build_object('intent', "purser_intent_view"(p_intent_id)), p_at);
  END IF;
  IF p_audit_action IS NOT NULL THEN
    v_audit_logged := EXISTS (
      SELECT 1 FROM "audit_events" e
       WHERE e."owner_id" = v_intent."owner_id" AND e."subject" = 'payment_intent:' || p_intent_id AND e."action" = p_audit_action);
  END IF;
  -- The settlement event's deliveries first: a receiver hears of the payment before the budget it used.
  RETURN QUERY SELECT v_outcome, NULL::text, v_intent."owner_id", v_intent."agent_id", v_status, v_intent."rail", v_intent."created_at",
                      v_posted, v_payee, v_held, v_paid, v_returned, v_event_deliveries || v_alert_deliveries, v_audit_logged,
                      v_intent."reserved_at", v_intent."policy_decision", v_operation."reference", v_operation."sandbox", v_operation."settled_at",
                      v_intent."payment_session_id";
END;
$$;
