-- A paid call's front in two statements inside its transaction (docs/performance.md,
-- services/paid-calls/front/pay-in-request.ts).
--
-- The front of an x402 or MPP payment authorised in the agent's request used to send about 28
-- statements between BEGIN and COMMIT: lock the agent (three times), lock its wallet, insert the
-- intent, read it back, lock it, read the gate's inputs one by one, move the intent through
-- approved to processing, emit two events, find or create the hold account, post the hold, insert
-- the agent's pending payment, the rail operation, the outbox row and the audit events. Now:
--
--   1. purser_pay_front_inputs: the locks, in the order every payment takes them (the agent's row,
--      then its wallet), and everything the gate and the hold need, read under them.
--   2. TypeScript evaluates the gate (core's policy engine), and, when the payment goes through,
--      signs it and builds every row.
--   3. purser_pay_front_authorized writes them all.
--
-- Only a payment that goes through takes step 3; any other outcome (a denial, an approval to
-- wait for, too little money) is written by the general front, in the same transaction, under
-- the locks step 1 took. Every guard stays where it was: the posting goes through
-- purser_post_ledger_transaction (its lock order, its overdraft check), the balance CHECKs and
-- deferred triggers, the unique (agent, idempotency key) and (payment intent, type) indexes, the
-- audit chain's insert trigger.

-- The policies that apply to a new payment of an agent (policies/load-applicable-policies.ts):
-- the owner's owner-wide ones and the agent's, enabled and current, as a JSON array of rows.
CREATE FUNCTION "purser_applicable_policies"(p_owner_id uuid, p_agent_id uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_agg(jsonb_build_object(
           'id', p."id", 'owner_id', p."owner_id", 'agent_id', p."agent_id", 'payment_intent_id', p."payment_intent_id",
           'name', p."name", 'version', p."version", 'rules', p."rules", 'shadow', p."shadow", 'enabled', p."enabled",
           'created_at', p."created_at", 'superseded_at', p."superseded_at")), '[]'::jsonb)
    FROM "policies" p
   WHERE p."owner_id" = p_owner_id AND p."enabled" AND p."superseded_at" IS NULL
     AND p."payment_intent_id" IS NULL AND (p."agent_id" IS NULL OR p."agent_id" = p_agent_id)
$$;

-- The agent's row locked (as lock-paying-agent.ts locks it), then its wallet (as
-- getOrCreateAgentAccount does); the wallet's balance and spendable account in p_currency, the
-- agent's KYA tier and spending rules, the policies that apply to a new payment of the agent
-- (owner-wide and the agent's, enabled and current), what the agent has spent since each window
-- start (gate-inputs.ts spentByAgent), and an id for the hold's ledger transaction (its audit
-- entry names it, and the audit entry's hash is computed before the hold is posted).
CREATE FUNCTION "purser_pay_front_inputs"(
  p_agent_id uuid,
  p_wallet_id uuid,
  p_currency "Currency",
  p_window_start timestamptz,
  p_month_start timestamptz
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  agent record;
  wallet record;
  wallet_found boolean;
  account_id uuid;
  since timestamptz := least(p_window_start, p_month_start);
  spent record;
BEGIN
  SELECT a."status"::text AS "status", a."kya_tier"::text AS "kya_tier", a."owner_id" INTO agent
    FROM "agents" a WHERE a."id" = p_agent_id FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('agent_status', 'gone');
  END IF;
  SELECT w."balance_usdc", w."balance_usdt" INTO wallet FROM "agent_wallets" w WHERE w."id" = p_wallet_id AND w."agent_id" = p_agent_id FOR UPDATE;
  wallet_found := FOUND;
  SELECT l."id" INTO account_id FROM "ledger_accounts" l
   WHERE l."agent_wallet_id" = p_wallet_id AND l."kind" = 'agent' AND l."currency" = p_currency;
  SELECT sum(i."amount") FILTER (WHERE i."reserved_at" >= p_window_start) AS "window",
         sum(i."amount") FILTER (WHERE i."reserved_at" >= p_month_start) AS "month"
    INTO spent
    FROM "payment_intents" i
   WHERE i."agent_id" = p_agent_id AND i."reserved_at" >= since AND i."released_at" IS NULL;
  RETURN jsonb_build_object(
    'agent_status', agent."status",
    'kya_tier', agent."kya_tier",
    'wallet_found', wallet_found,
    'balance', CASE WHEN wallet_found THEN (CASE p_currency WHEN 'USDC' THEN wallet."balance_usdc" ELSE wallet."balance_usdt" END)::text END,
    'account_id', account_id,
    'rules', (SELECT jsonb_build_object(
                'max_transaction_amount', r."max_transaction_amount"::text,
                'max_daily_limit', r."max_daily_limit"::text,
                'approval_threshold', r."approval_threshold"::text)
                FROM "spending_rules" r WHERE r."agent_id" = p_agent_id),
    'policies', "purser_applicable_policies"(agent."owner_id", p_agent_id),
    'spent_in_window', coalesce(spent."window", 0)::text,
    'spent_this_month', coalesce(spent."month", 0)::text,
    'hold_id', "purser_uuid_v7"()
  );
END;
$$;

-- Everything an authorised payment writes, built by TypeScript (pay-in-request.ts): the intent,
-- already processing; its events and their webhook deliveries to the owner's endpoints that
-- subscribe to them; the hold (agent -> hold, the hold account created on first use); the
-- agent's pending payment; the signed rail operation (none for `upto`, signed after the commit);
-- the outbox row of its workflow, naming the deliveries; the audit events
-- (purser_append_audit_events, last, so the owner's chain head is held only until the commit).
-- Answers the deliveries' ids.
CREATE FUNCTION "purser_pay_front_authorized"(
  p_intent jsonb,
  p_events jsonb,
  p_hold jsonb,
  p_agent_transaction jsonb,
  p_operation jsonb,
  p_audit jsonb
) RETURNS uuid[] LANGUAGE plpgsql AS $$
DECLARE
  v_intent_id uuid := (p_intent->>'id')::uuid;
  v_owner_id uuid := (p_intent->>'owner_id')::uuid;
  v_hold_account uuid;
  event jsonb;
  v_delivery_ids uuid[] := '{}';
  v_posted uuid;
BEGIN
  INSERT INTO "payment_intents" (
    "id", "owner_id", "agent_id", "created_by", "amount", "currency", "purpose", "merchant", "to_address", "category",
    "kya_tier", "geography", "max_retries", "metadata", "status", "rail", "workflow_id", "idempotency_key", "request_hash",
    "policy_decision", "reserved_at", "created_at", "updated_at")
  SELECT r."id", r."owner_id", r."agent_id", r."created_by", r."amount", r."currency", r."purpose", r."merchant", r."to_address", r."category",
         r."kya_tier", r."geography", r."max_retries", r."metadata", r."status", r."rail", r."workflow_id", r."idempotency_key", r."request_hash",
         r."policy_decision", r."reserved_at", r."created_at", r."updated_at"
    FROM jsonb_populate_record(NULL::"payment_intents", p_intent) r;

  FOR event IN SELECT * FROM jsonb_array_elements(p_events) LOOP
    INSERT INTO "payment_events" ("id", "owner_id", "payment_intent_id", "type", "payload", "created_at")
    VALUES ((event->>'id')::uuid, v_owner_id, v_intent_id, event->>'type', event->'payload', (event->>'created_at')::timestamptz);
    WITH made AS (
      INSERT INTO "webhook_deliveries" ("id", "endpoint_id", "event_id", "event_type", "payload", "created_at", "updated_at")
      SELECT "purser_uuid_v7"(), e."id", event->>'id', event->>'type', event->'payload', (event->>'created_at')::timestamptz, (event->>'created_at')::timestamptz
        FROM "webhook_endpoints" e
       WHERE e."owner_id" = v_owner_id AND e."enabled" AND e."deleted_at" IS NULL AND e."events" @> ARRAY[event->>'type']
       ORDER BY e."id"
      RETURNING "id"
    )
    SELECT v_delivery_ids || coalesce(array_agg(made."id" ORDER BY made."id"), '{}') INTO v_delivery_ids FROM made;
  END LOOP;

  v_hold_account := "purser_wallet_account"('hold', (p_hold->>'currency')::"Currency", NULL, (p_hold->>'wallet_id')::uuid);
  v_posted := "purser_post_ledger_transaction"(
    'payment_hold', p_hold->>'description', v_intent_id,
    ARRAY[(p_hold->>'agent_account_id')::uuid, v_hold_account],
    ARRAY[-(p_hold->>'amount')::bigint, (p_hold->>'amount')::bigint],
    ARRAY[(p_hold->>'currency')::"Currency", (p_hold->>'currency')::"Currency"],
    (p_hold->>'id')::uuid);

  INSERT INTO "agent_transactions" ("id", "agent_id", "type", "amount", "currency", "status", "category", "to_address", "description", "metadata",
                                    "payment_intent_id", "ledger_transaction_id", "created_at")
  SELECT "purser_uuid_v7"(), r."agent_id", r."type", r."amount", r."currency", r."status", r."category", r."to_address", r."description", r."metadata",
         v_intent_id, v_posted, r."created_at"
    FROM jsonb_populate_record(NULL::"agent_transactions", p_agent_transaction) r;

  IF p_operation IS NOT NULL AND p_operation <> 'null'::jsonb THEN
    INSERT INTO "rail_operations" ("id", "payment_intent_id", "rail", "reference", "status", "sandbox", "decline_code", "decline_message",
                                   "settle_after", "settled_at", "details", "created_at", "updated_at")
    SELECT "purser_uuid_v7"(), v_intent_id, r."rail", r."reference", r."status", r."sandbox", r."decline_code", r."decline_message",
           r."settle_after", r."settled_at", r."details", r."created_at", r."created_at"
      FROM jsonb_populate_record(NULL::"rail_operations", p_operation) r;
  END IF;

  INSERT INTO "payment_workflow_outbox" ("payment_intent_id", "max_retries", "webhook_delivery_ids", "created_at")
  VALUES (v_intent_id, (p_intent->>'max_retries')::int, v_delivery_ids, (p_intent->>'created_at')::timestamptz);

  PERFORM "purser_append_audit_events"(
    ARRAY(SELECT jsonb_array_elements_text(p_audit->'chain_ids')),
    ARRAY(SELECT jsonb_array_elements_text(p_audit->'ats'))::timestamptz[],
    ARRAY(SELECT jsonb_array_elements_text(p_audit->'actors')),
    ARRAY(SELECT jsonb_array_elements_text(p_audit->'actions')),
    ARRAY(SELECT jsonb_array_elements_text(p_audit->'subjects')),
    ARRAY(SELECT jsonb_array_elements_text(p_audit->'owner_ids'))::uuid[],
    ARRAY(SELECT jsonb_array_elements(p_audit->'datas')),
    ARRAY(SELECT jsonb_array_elements_text(p_audit->'head_parts')),
    ARRAY(SELECT jsonb_array_elements_text(p_audit->'middle_parts')),
    ARRAY(SELECT jsonb_array_elements_text(p_audit->'tail_parts')));
  RETURN v_delivery_ids;
END;
$$;

-- The posting function with the ledger transaction's id chosen by the caller (the id
-- purser_pay_front_inputs handed out); the six-argument form draws one itself, as before.
CREATE FUNCTION "purser_post_ledger_transaction"(
  p_type text,
  p_description text,
  p_payment_intent_id uuid,
  p_account_ids uuid[],
  p_amounts bigint[],
  p_currencies "Currency"[],
  p_id uuid
) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  posted_id uuid := coalesce(p_id, "purser_uuid_v7"());
  problem record;
BEGIN
  IF coalesce(cardinality(p_account_ids), 0) = 0
     OR cardinality(p_amounts) <> cardinality(p_account_ids)
     OR cardinality(p_currencies) <> cardinality(p_account_ids) THEN
    RAISE EXCEPTION 'A ledger transaction needs entries, each with an account, an amount and a currency';
  END IF;

  SELECT e."currency", sum(e."amount") AS total INTO problem
    FROM unnest(p_amounts, p_currencies) AS e("amount", "currency")
   GROUP BY e."currency" HAVING sum(e."amount") <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'Ledger transaction does not balance: its % entries sum to %, not 0', problem."currency", problem.total
      USING ERRCODE = 'check_violation';
  END IF;

  SELECT e."account_id", e."currency", a."id" AS "found", a."currency" AS "held" INTO problem
    FROM unnest(p_account_ids, p_currencies) AS e("account_id", "currency")
    LEFT JOIN "ledger_accounts" a ON a."id" = e."account_id"
   WHERE a."id" IS NULL OR a."currency" <> e."currency" LIMIT 1;
  IF FOUND AND problem."found" IS NULL THEN
    RAISE EXCEPTION 'Ledger account % does not exist', problem."account_id";
  ELSIF FOUND THEN
    RAISE EXCEPTION 'Ledger entry in % cannot post to account % held in %', problem."currency", problem."account_id", problem."held"
      USING ERRCODE = 'check_violation';
  END IF;

  PERFORM 1 FROM "owner_wallets"
   WHERE "id" IN (SELECT "owner_wallet_id" FROM "ledger_accounts" WHERE "id" = ANY(p_account_ids))
   ORDER BY "id" FOR UPDATE;
  PERFORM 1 FROM "agent_wallets"
   WHERE "id" IN (SELECT "agent_wallet_id" FROM "ledger_accounts" WHERE "id" = ANY(p_account_ids))
   ORDER BY "id" FOR UPDATE;

  -- Locked in id order first, then checked: an account's kind never changes (its guard).
  PERFORM 1 FROM "ledger_accounts"
   WHERE "id" = ANY(p_account_ids) AND "kind" <> 'external'
   ORDER BY "id" FOR UPDATE;
  SELECT a."id", a."balance", n."net" INTO problem
    FROM (SELECT e."account_id", sum(e."amount") AS "net"
            FROM unnest(p_account_ids, p_amounts) AS e("account_id", "amount")
           GROUP BY e."account_id") n
    JOIN "ledger_accounts" a ON a."id" = n."account_id"
   WHERE a."kind" <> 'external' AND a."balance" + n."net" < 0
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'insufficient funds: ledger account % holds %, the posting moves %', problem."id", problem."balance", problem."net"
      USING ERRCODE = 'check_violation';
  END IF;

  INSERT INTO "ledger_transactions" ("id", "type", "description", "payment_intent_id")
  VALUES (posted_id, p_type, coalesce(p_description, ''), p_payment_intent_id);
  -- In account order, so concurrent postings take the accounts' row locks in one order.
  INSERT INTO "ledger_entries" ("id", "transaction_id", "account_id", "amount", "currency")
  SELECT "purser_uuid_v7"(), posted_id, e."account_id", e."amount", e."currency"
    FROM unnest(p_account_ids, p_amounts, p_currencies) AS e("account_id", "amount", "currency")
   ORDER BY e."account_id";
  RETURN posted_id;
END;
$$;

CREATE OR REPLACE FUNCTION "purser_post_ledger_transaction"(
  p_type text,
  p_description text,
  p_payment_intent_id uuid,
  p_account_ids uuid[],
  p_amounts bigint[],
  p_currencies "Currency"[]
) RETURNS uuid LANGUAGE sql AS $$
  SELECT "purser_post_ledger_transaction"(p_type, p_description, p_payment_intent_id, p_account_ids, p_amounts, p_currencies, NULL::uuid)
$$;
