-- Settling a payment in one statement (docs/performance.md; server/src/services/payments/README.md).
--
-- The settle step of the payment workflow (server/src/services/payments/settle-payment.ts) used
-- to send about twenty statements once the rail had settled: lock the intent, read its row,
-- read the rail operation (twice), lock the wallets, find the hold account, post the capture,
-- update the agent's history row (and its chain facts in two more), move the intent, read the
-- agent, the spend and the policies for the budget alerts, read the intent again for the event,
-- insert the event, read the webhook endpoints, check the workflow's audit entry. The function
-- purser_capture_payment does the same, in the same order and under the same locks, inside the
-- database; with the audit entries (written by append-audit-event.ts as the transaction's last
-- statement) a settle is BEGIN, this, the audit entries, COMMIT. A paid call authorised in the
-- agent's request whose seller has already settled it is ended by this one statement too, its
-- workflow's only step (p_when_settled).
--
-- It keeps every guard, and the locks of the steps it replaces, in their order. The intent's row
-- lock orders a capture against a release, a cancel or a second capture; the wallets are locked
-- in id order, then the accounts (by purser_post_ledger_transaction, its overdraft check
-- included); the audit chain's head is locked last, by the statement after this one. The unique (payment_intent_id, type) index of
-- ledger_transactions stands behind the settled check, so a retried step never captures twice.
-- What TypeScript decides is handed in: the time, the windows the spend is counted over (the
-- policy engine's time zone rules), the alert thresholds, the event to emit and the audit action
-- to look for. What needs no decision of TypeScript's (the intent's view in a webhook event, a
-- budget alert's body) is written here, as the TypeScript views write it.
--
-- Refusals are answered, not raised (as purser_fund_agent answers them): when one is answered
-- nothing has been written.

-- ---------------------------------------------------------------------------------------
-- How the TypeScript views spell values (core's money.ts, Date.prototype.toISOString).
-- ---------------------------------------------------------------------------------------

-- Atomic units as toDecimalString spells them: 1500000 -> '1.5', 1 -> '0.000001', 0 -> '0'.
CREATE FUNCTION "purser_decimal_string"(p_units bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_units < 0 THEN '-' ELSE '' END
      || (abs(p_units) / 1000000)::text
      || coalesce('.' || nullif(rtrim(lpad((abs(p_units) % 1000000)::text, 6, '0'), '0'), ''), '')
$$;

-- Atomic units as toDollars answers them: a JSON number with no more digits than it needs.
CREATE FUNCTION "purser_dollars"(p_units bigint) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT to_jsonb("purser_decimal_string"(p_units)::numeric)
$$;

-- A time as toISOString writes it: 2026-12-06T12:00:00.000Z (the columns keep milliseconds).
CREATE FUNCTION "purser_iso_time"(p_at timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- A dollar amount as core's parseAmount reads it, zero allowed (a policy's limit): a JSON number
-- or a decimal string, at most 6 decimals, not negative, at most MAX_AMOUNT_UNITS; NULL when it
-- would not parse.
CREATE FUNCTION "purser_dollar_units"(p_value jsonb) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  spelled text;
  parts text[];
  units numeric;
BEGIN
  IF jsonb_typeof(p_value) = 'number' THEN
    -- A number is read through its shortest decimal spelling, as JavaScript reads JSON.
    spelled := trim_scale((p_value #>> '{}')::numeric)::text;
  ELSIF jsonb_typeof(p_value) = 'string' THEN
    spelled := regexp_replace(p_value #>> '{}', '^\s+|\s+$', '', 'g');
  ELSE
    RETURN NULL;
  END IF;
  IF left(spelled, 1) = '-' THEN
    RETURN NULL;
  END IF;
  IF left(spelled, 1) = '+' THEN
    spelled := substr(spelled, 2);
  END IF;
  parts := regexp_match(spelled, '^([0-9]+)(?:\.([0-9]+))?$');
  IF parts IS NULL OR length(coalesce(parts[2], '')) > 6 THEN
    RETURN NULL;
  END IF;
  units := parts[1]::numeric * 1000000 + rpad(coalesce(parts[2], ''), 6, '0')::numeric;
  IF units > 1000000000000000000 THEN
    RETURN NULL;
  END IF;
  RETURN units::bigint;
END;
$$;

-- ---------------------------------------------------------------------------------------
-- An intent as a webhook event carries it: server/src/services/intents/intent-view.ts
-- (toIntentView), field for field. settle-statements.db.test.ts holds the two to the same
-- answer for intents of every kind.
-- ---------------------------------------------------------------------------------------

-- The stored policy decision as core's policyDecisionView reads it: the fields it knows (others
-- dropped), or NULL when one has the wrong type. A fired rule's code is taken as a string: every
-- code the engine has written is one of POLICY_RULE_CODES.
CREATE FUNCTION "purser_policy_decision_view"(p_decision jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  item jsonb;
  fired jsonb := '[]';
  shadow jsonb := '[]';
BEGIN
  IF jsonb_typeof(p_decision) IS DISTINCT FROM 'object'
     OR jsonb_typeof(p_decision -> 'decision') IS DISTINCT FROM 'string'
     OR p_decision ->> 'decision' NOT IN ('allow', 'require_approval', 'deny')
     OR jsonb_typeof(p_decision -> 'fired') IS DISTINCT FROM 'array'
     OR jsonb_typeof(p_decision -> 'shadow') IS DISTINCT FROM 'array'
     OR jsonb_typeof(p_decision -> 'evaluatedAt') IS DISTINCT FROM 'string' THEN
    RETURN NULL;
  END IF;
  FOR item IN SELECT e."value" FROM jsonb_array_elements(p_decision -> 'fired') AS e LOOP
    IF jsonb_typeof(item) IS DISTINCT FROM 'object'
       OR jsonb_typeof(item -> 'rule') IS DISTINCT FROM 'string'
       OR jsonb_typeof(item -> 'outcome') IS DISTINCT FROM 'string'
       OR item ->> 'outcome' NOT IN ('deny', 'require_approval')
       OR jsonb_typeof(item -> 'code') IS DISTINCT FROM 'string'
       OR jsonb_typeof(item -> 'message') IS DISTINCT FROM 'string'
       OR (item -> 'policyId' IS NOT NULL AND jsonb_typeof(item -> 'policyId') IS DISTINCT FROM 'string')
       OR jsonb_typeof(item -> 'shadow') IS DISTINCT FROM 'boolean' THEN
      RETURN NULL;
    END IF;
    fired := fired || jsonb_build_array(
      jsonb_build_object('rule', item -> 'rule', 'outcome', item -> 'outcome', 'code', item -> 'code', 'message', item -> 'message', 'shadow', item -> 'shadow')
      || CASE WHEN item -> 'policyId' IS NOT NULL THEN jsonb_build_object('policyId', item -> 'policyId') ELSE '{}'::jsonb END);
  END LOOP;
  FOR item IN SELECT e."value" FROM jsonb_array_elements(p_decision -> 'shadow') AS e LOOP
    IF jsonb_typeof(item) IS DISTINCT FROM 'object'
       OR jsonb_typeof(item -> 'policyId') IS DISTINCT FROM 'string'
       OR jsonb_typeof(item -> 'name') IS DISTINCT FROM 'string'
       OR jsonb_typeof(item -> 'version') IS DISTINCT FROM 'number'
       OR jsonb_typeof(item -> 'decision') IS DISTINCT FROM 'string'
       OR item ->> 'decision' NOT IN ('allow', 'require_approval', 'deny') THEN
      RETURN NULL;
    END IF;
    shadow := shadow || jsonb_build_array(jsonb_build_object('policyId', item -> 'policyId', 'name', item -> 'name', 'version', item -> 'version', 'decision', item -> 'decision'));
  END LOOP;
  RETURN jsonb_build_object('decision', p_decision -> 'decision', 'fired', fired, 'shadow', shadow, 'evaluatedAt', p_decision -> 'evaluatedAt');
END;
$$;

CREATE FUNCTION "purser_intent_view"(p_intent_id uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
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

-- ---------------------------------------------------------------------------------------
-- Payment events: server/src/services/webhooks/emit-payment-event.ts.
-- ---------------------------------------------------------------------------------------

-- Records a payment event and its webhook deliveries, once per intent and type: emitting again
-- reuses the event and answers its deliveries, creating nothing. `p_data` is the event's `data`
-- ({"intent": <the intent's view>}); the body stored and delivered is { id, type, createdAt, data },
-- its id the event's (the `webhook-id` of every attempt), createdAt `p_at`. The deliveries go to
-- the owner's live, enabled endpoints subscribed to the type, as they are when the event is first
-- recorded. Answers the event's id and every delivery of it, in id order.
CREATE FUNCTION "purser_record_payment_event"(p_owner_id uuid, p_intent_id uuid, p_type text, p_data jsonb, p_at timestamptz)
RETURNS TABLE ("event_id" uuid, "delivery_ids" uuid[]) LANGUAGE plpgsql AS $$
DECLARE
  v_event_id uuid := "purser_uuid_v7"();
  v_body jsonb;
  v_deliveries uuid[];
BEGIN
  v_body := jsonb_build_object('id', v_event_id, 'type', p_type, 'createdAt', "purser_iso_time"(p_at), 'data', p_data);
  -- ON CONFLICT DO NOTHING: a racing emit of the same event waits for the other's commit and
  -- then inserts nothing, instead of aborting this transaction on a unique violation.
  INSERT INTO "payment_events" ("id", "owner_id", "payment_intent_id", "type", "payload", "created_at")
  VALUES (v_event_id, p_owner_id, p_intent_id, p_type, v_body, p_at)
  ON CONFLICT DO NOTHING;
  IF FOUND THEN
    WITH "made" AS (
      INSERT INTO "webhook_deliveries" ("id", "endpoint_id", "event_id", "event_type", "payload", "created_at")
      SELECT "purser_uuid_v7"(), e."id", v_event_id::text, p_type, v_body, p_at
        FROM "webhook_endpoints" e
       WHERE e."owner_id" = p_owner_id AND e."enabled" AND e."deleted_at" IS NULL AND e."events" @> ARRAY[p_type]
       ORDER BY e."id"
      ON CONFLICT DO NOTHING
      RETURNING "id")
    SELECT coalesce(array_agg(m."id" ORDER BY m."id"), '{}') INTO v_deliveries FROM "made" m;
  ELSE
    SELECT ev."id" INTO STRICT v_event_id FROM "payment_events" ev WHERE ev."payment_intent_id" = p_intent_id AND ev."type" = p_type;
    -- Through the owner's endpoints, the index webhook_deliveries has (endpoint, event).
    SELECT coalesce(array_agg(d."id" ORDER BY d."id"), '{}') INTO v_deliveries
      FROM "webhook_deliveries" d
     WHERE d."endpoint_id" IN (SELECT e."id" FROM "webhook_endpoints" e WHERE e."owner_id" = p_owner_id)
       AND d."event_id" = v_event_id::text;
  END IF;
  RETURN QUERY SELECT v_event_id, v_deliveries;
END;
$$;

-- The same, answering only the deliveries: for a caller that emits from its own SQL, e.g.
--   purser_emit_payment_event(owner, intent, 'intent.created', jsonb_build_object('intent', purser_intent_view(intent)), now)
CREATE FUNCTION "purser_emit_payment_event"(p_owner_id uuid, p_intent_id uuid, p_type text, p_data jsonb, p_at timestamptz)
RETURNS uuid[] LANGUAGE sql AS $$
  SELECT r."delivery_ids" FROM "purser_record_payment_event"(p_owner_id, p_intent_id, p_type, p_data, p_at) r
$$;

-- ---------------------------------------------------------------------------------------
-- Budget alerts: server/src/services/budgets/record-budget-alerts.ts says what they are.
-- ---------------------------------------------------------------------------------------

-- The alerts a captured payment's spend reaches, with their webhook deliveries; answers the ids
-- of the deliveries made (to start after commit). The spend is the agent's reserved and not
-- released payments since each window's start, as the policy engine counts it (gate-inputs.ts
-- spentByAgent); the windows are TypeScript's (usageWindows). The daily limit alerts once per
-- UTC day, each enforced policy's monthly budget once per UTC month. A stored policy whose rules
-- are not an object, or whose monthlyBudget does not parse, skips the monthly checks rather than
-- failing the capture (the money has moved by now; the gate refuses new payments over it).
CREATE FUNCTION "purser_record_budget_alerts"(
  p_intent_id uuid,
  p_owner_id uuid,
  p_agent_id uuid,
  p_at timestamptz,
  p_window_start timestamptz,
  p_month_start timestamptz,
  p_thresholds int[]
) RETURNS uuid[] LANGUAGE sql AS $$
  WITH "agent" AS (
    SELECT a."name", s."max_daily_limit" FROM "agents" a LEFT JOIN "spending_rules" s ON s."agent_id" = a."id" WHERE a."id" = p_agent_id
  ), "usage" AS (
    SELECT coalesce(sum(i."amount") FILTER (WHERE i."reserved_at" >= p_window_start), 0)::bigint AS "in_window",
           coalesce(sum(i."amount") FILTER (WHERE i."reserved_at" >= p_month_start), 0)::bigint AS "in_month"
      FROM "payment_intents" i
     WHERE i."agent_id" = p_agent_id AND i."reserved_at" >= least(p_window_start, p_month_start) AND i."released_at" IS NULL
  ), "applicable" AS (
    SELECT p."id", p."shadow", p."rules",
           jsonb_typeof(p."rules") = 'object' AND (p."rules" -> 'monthlyBudget' IS NULL OR "purser_dollar_units"(p."rules" -> 'monthlyBudget') IS NOT NULL) AS "parses"
      FROM "policies" p
     WHERE p."owner_id" = p_owner_id AND p."enabled" AND p."superseded_at" IS NULL
       AND ((p."agent_id" IS NULL AND p."payment_intent_id" IS NULL)
         OR (p."agent_id" = p_agent_id AND p."payment_intent_id" IS NULL)
         OR p."payment_intent_id" = p_intent_id)
  ), "checks" AS (
    SELECT 'daily_limit' AS "scope", 'daily_limit' AS "kind", NULL::uuid AS "policy_id",
           to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "period", u."in_window" AS "spent", a."max_daily_limit" AS "limit"
      FROM "agent" a, "usage" u
     WHERE a."max_daily_limit" IS NOT NULL
    UNION ALL
    SELECT 'policy:' || p."id", 'monthly_budget', p."id",
           to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM'), u."in_month", "purser_dollar_units"(p."rules" -> 'monthlyBudget')
      FROM "applicable" p, "usage" u
     WHERE NOT p."shadow" AND p."rules" -> 'monthlyBudget' IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM "applicable" broken WHERE NOT broken."parses")
  ), "reached" AS (
    -- A zero limit is "no spending": every payment is refused, nothing to warn about.
    SELECT c.*, t."threshold", "purser_uuid_v7"() AS "id"
      FROM "checks" c CROSS JOIN unnest(p_thresholds) AS t("threshold")
     WHERE c."limit" > 0 AND c."spent"::numeric * 100 >= t."threshold"::numeric * c."limit"::numeric
  ), "inserted" AS (
    -- ON CONFLICT DO NOTHING: an alert of this period exists already (an earlier payment, or a
    -- racing capture that committed first) and only the new ones come back.
    INSERT INTO "budget_alerts" ("id", "owner_id", "agent_id", "scope", "threshold", "period", "spent", "limit", "currency", "payment_intent_id", "payload", "created_at")
    SELECT r."id", p_owner_id, p_agent_id, r."scope", r."threshold", r."period", r."spent", r."limit", 'USDC', p_intent_id,
           jsonb_build_object('id', r."id", 'type', 'budget.threshold', 'createdAt', "purser_iso_time"(p_at), 'data', jsonb_build_object('alert', jsonb_build_object(
             'agentId', p_agent_id, 'agentName', (SELECT a."name" FROM "agent" a), 'scope', r."kind", 'policyId', r."policy_id",
             'threshold', r."threshold", 'period', r."period",
             'spent', "purser_dollars"(r."spent"), 'spentExact', "purser_decimal_string"(r."spent"),
             'limit', "purser_dollars"(r."limit"), 'limitExact', "purser_decimal_string"(r."limit"),
             'currency', 'USDC', 'intentId', p_intent_id))),
           p_at
      FROM "reached" r
    ON CONFLICT DO NOTHING
    RETURNING "id", "payload"
  ), "delivered" AS (
    INSERT INTO "webhook_deliveries" ("id", "endpoint_id", "event_id", "event_type", "payload", "created_at")
    SELECT "purser_uuid_v7"(), e."id", n."id"::text, 'budget.threshold', n."payload", p_at
      FROM "inserted" n
      JOIN "webhook_endpoints" e ON e."owner_id" = p_owner_id AND e."enabled" AND e."deleted_at" IS NULL AND e."events" @> ARRAY['budget.threshold']
    ON CONFLICT DO NOTHING
    RETURNING "id"
  )
  SELECT coalesce(array_agg(d."id" ORDER BY d."id"), '{}') FROM "delivered" d
$$;

-- The deliveries of the budget alerts a payment's capture made: what a retry of a committed
-- capture starts again (starting a started delivery changes nothing). Read through the agent's
-- alerts and the owner's endpoints, the indexes those tables have.
CREATE FUNCTION "purser_budget_alert_delivery_ids"(p_intent_id uuid, p_owner_id uuid, p_agent_id uuid) RETURNS uuid[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(d."id" ORDER BY d."id"), '{}')
    FROM "webhook_deliveries" d
   WHERE d."endpoint_id" IN (SELECT e."id" FROM "webhook_endpoints" e WHERE e."owner_id" = p_owner_id)
     AND d."event_id" IN (SELECT b."id"::text FROM "budget_alerts" b WHERE b."agent_id" = p_agent_id AND b."payment_intent_id" = p_intent_id)
$$;

-- ---------------------------------------------------------------------------------------
-- The capture: server/src/services/payments/settle-payment.ts.
-- ---------------------------------------------------------------------------------------

-- Captures a processing intent's hold: hold -> payee, with what the hold had beyond what the
-- rail moved returned to the agent (x402 `upto`), in one ledger transaction; the agent's history
-- row completed (with where an on-chain payment settled), the payee agent's row for an internal
-- payment, the intent settled, the budget alerts its spend reaches; then, when `p_event_type` is
-- given, that event with the settled intent's view, and whether the intent already has
-- `p_audit_action` in its owner's audit log. A capture that committed already answers
-- 'settled_before' with the same deliveries to start again (and emits the event if it is missing).
--
-- `p_when_settled`: capture only an intent whose funds are held and whose rail operation has
-- settled, and answer 'not_ready' for any other (a payment authorised in the agent's request,
-- whose workflow ends it at once when the seller has already settled it on chain). The answer
-- then also says what the request did: the intent's decision and when it held the funds, the
-- operation's reference, whether it is a sandbox's, and when it settled.
--
-- `outcome`: 'captured', 'settled_before'; or nothing written: 'not_found', 'not_ready',
-- 'refused' (the intent is not captured from its status; `message` says why), 'invariant' (the
-- rail's settlement does not match what was held: the funds stay held for an operator; `message`
-- says why).
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
  "operation_settled_at" timestamptz
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
         i."to_address", i."category", i."purpose", i."created_at", i."reserved_at", i."released_at", i."settled_at", i."policy_decision"
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
                        NULL::timestamptz, NULL::jsonb, NULL::text, NULL::boolean, NULL::timestamptz;
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
                      v_intent."reserved_at", v_intent."policy_decision", v_operation."reference", v_operation."sandbox", v_operation."settled_at";
END;
$$;
