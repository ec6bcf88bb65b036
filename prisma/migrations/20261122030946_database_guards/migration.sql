-- Hand-written guards that schema.prisma cannot express. The database, not only the
-- service layer, enforces the money and audit invariants. See prisma/README.md.

-- ---------------------------------------------------------------------------------------
-- Amounts, limits and counters
-- ---------------------------------------------------------------------------------------

ALTER TABLE "owner_wallets"
  ADD CONSTRAINT "owner_wallets_balance_usdc_not_negative" CHECK ("balance_usdc" >= 0),
  ADD CONSTRAINT "owner_wallets_balance_usdt_not_negative" CHECK ("balance_usdt" >= 0);

ALTER TABLE "agent_wallets"
  ADD CONSTRAINT "agent_wallets_balance_usdc_not_negative" CHECK ("balance_usdc" >= 0),
  ADD CONSTRAINT "agent_wallets_balance_usdt_not_negative" CHECK ("balance_usdt" >= 0);

-- Only the external account (the world outside the platform) may go below zero: its
-- negative balance is the total deposited into the platform.
ALTER TABLE "ledger_accounts"
  ADD CONSTRAINT "ledger_accounts_balance_not_negative" CHECK ("balance" >= 0 OR "kind" = 'external'),
  ADD CONSTRAINT "ledger_accounts_holder_matches_kind" CHECK (
    ("kind" = 'owner' AND "owner_wallet_id" IS NOT NULL AND "agent_wallet_id" IS NULL)
    OR ("kind" IN ('agent', 'hold') AND "agent_wallet_id" IS NOT NULL AND "owner_wallet_id" IS NULL)
    OR ("kind" = 'external' AND "owner_wallet_id" IS NULL AND "agent_wallet_id" IS NULL)
  );

ALTER TABLE "ledger_entries"
  ADD CONSTRAINT "ledger_entries_amount_not_zero" CHECK ("amount" <> 0);

ALTER TABLE "spending_rules"
  ADD CONSTRAINT "spending_rules_limits_not_negative" CHECK (
    "max_transaction_amount" >= 0 AND "max_daily_limit" >= 0
    AND ("approval_threshold" IS NULL OR "approval_threshold" >= 0)
  );

ALTER TABLE "payment_intents"
  ADD CONSTRAINT "payment_intents_amount_positive" CHECK ("amount" > 0),
  ADD CONSTRAINT "payment_intents_max_retries_not_negative" CHECK ("max_retries" >= 0);

ALTER TABLE "invitation_codes"
  ADD CONSTRAINT "invitation_codes_uses_within_max" CHECK ("max_uses" > 0 AND "uses" >= 0 AND "uses" <= "max_uses");

ALTER TABLE "webhook_deliveries"
  ADD CONSTRAINT "webhook_deliveries_attempts_not_negative" CHECK ("attempts" >= 0);

-- ---------------------------------------------------------------------------------------
-- Append-only tables: ledger transactions, ledger entries, audit events
-- ---------------------------------------------------------------------------------------

-- Guard errors keep the default SQLSTATE P0001 (raise_exception): drivers pass its message
-- through, while @prisma/adapter-pg reports e.g. restrict_violation as a foreign-key error.
CREATE FUNCTION "purser_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is refused', TG_TABLE_NAME, TG_OP;
END;
$$;

CREATE TRIGGER "ledger_transactions_append_only" BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION "purser_refuse_change"();
CREATE TRIGGER "ledger_transactions_no_truncate" BEFORE TRUNCATE ON "ledger_transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION "purser_refuse_change"();

CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "purser_refuse_change"();
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "purser_refuse_change"();

CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "purser_refuse_change"();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "purser_refuse_change"();

-- ---------------------------------------------------------------------------------------
-- Double-entry ledger
-- ---------------------------------------------------------------------------------------

-- Posting an entry moves the account's balance, and for owner and agent accounts the
-- wallet's balance column, in the same statement. Balances therefore always equal the sum
-- of entries, and the CHECKs above refuse any posting that would overdraw.
CREATE FUNCTION "purser_post_ledger_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  account "ledger_accounts"%ROWTYPE;
BEGIN
  UPDATE "ledger_accounts"
     SET "balance" = "balance" + NEW."amount", "updated_at" = CURRENT_TIMESTAMP
   WHERE "id" = NEW."account_id"
  RETURNING * INTO account;

  IF account."currency" <> NEW."currency" THEN
    RAISE EXCEPTION 'ledger entry in % cannot post to ledger account % held in %',
      NEW."currency", account."id", account."currency"
      USING ERRCODE = 'check_violation';
  END IF;

  IF account."kind" = 'owner' THEN
    UPDATE "owner_wallets"
       SET "balance_usdc" = "balance_usdc" + CASE WHEN NEW."currency" = 'USDC' THEN NEW."amount" ELSE 0 END,
           "balance_usdt" = "balance_usdt" + CASE WHEN NEW."currency" = 'USDT' THEN NEW."amount" ELSE 0 END,
           "updated_at" = CURRENT_TIMESTAMP
     WHERE "id" = account."owner_wallet_id";
  ELSIF account."kind" = 'agent' THEN
    UPDATE "agent_wallets"
       SET "balance_usdc" = "balance_usdc" + CASE WHEN NEW."currency" = 'USDC' THEN NEW."amount" ELSE 0 END,
           "balance_usdt" = "balance_usdt" + CASE WHEN NEW."currency" = 'USDT' THEN NEW."amount" ELSE 0 END,
           "updated_at" = CURRENT_TIMESTAMP
     WHERE "id" = account."agent_wallet_id";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "ledger_entries_post" AFTER INSERT ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "purser_post_ledger_entry"();

-- Checked at COMMIT, so a transaction's entries can be inserted one by one.
CREATE FUNCTION "purser_check_ledger_transaction_balances"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced record;
BEGIN
  SELECT "currency", sum("amount") AS total INTO unbalanced
    FROM "ledger_entries"
   WHERE "transaction_id" = NEW."transaction_id"
   GROUP BY "currency"
  HAVING sum("amount") <> 0
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: its % entries sum to %, not 0',
      NEW."transaction_id", unbalanced."currency", unbalanced.total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER "ledger_entries_balanced" AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "purser_check_ledger_transaction_balances"();

CREATE FUNCTION "purser_check_ledger_transaction_has_entries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "ledger_entries" WHERE "transaction_id" = NEW."id") THEN
    RAISE EXCEPTION 'ledger transaction % has no entries', NEW."id"
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER "ledger_transactions_have_entries" AFTER INSERT ON "ledger_transactions"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "purser_check_ledger_transaction_has_entries"();

-- Balances start at zero and move only through ledger entries (the posting trigger above
-- runs at trigger depth 2; a direct UPDATE runs at depth 1). An account's kind, currency and
-- holder never change, so the wallet projection cannot drift.
CREATE FUNCTION "purser_guard_wallet_balances"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."balance_usdc" <> 0 OR NEW."balance_usdt" <> 0 THEN
      RAISE EXCEPTION '% balances start at 0 and change only through ledger entries', TG_TABLE_NAME;
    END IF;
  ELSIF (NEW."balance_usdc" <> OLD."balance_usdc" OR NEW."balance_usdt" <> OLD."balance_usdt")
        AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION '% balances change only through ledger entries', TG_TABLE_NAME;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "owner_wallets_guard_balances" BEFORE INSERT OR UPDATE ON "owner_wallets"
  FOR EACH ROW EXECUTE FUNCTION "purser_guard_wallet_balances"();
CREATE TRIGGER "agent_wallets_guard_balances" BEFORE INSERT OR UPDATE ON "agent_wallets"
  FOR EACH ROW EXECUTE FUNCTION "purser_guard_wallet_balances"();

CREATE FUNCTION "purser_guard_ledger_account"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."balance" <> 0 THEN
      RAISE EXCEPTION 'ledger account balances start at 0 and change only through ledger entries';
    END IF;
    RETURN NEW;
  END IF;
  IF NEW."kind" <> OLD."kind" OR NEW."currency" <> OLD."currency"
     OR NEW."owner_wallet_id" IS DISTINCT FROM OLD."owner_wallet_id"
     OR NEW."agent_wallet_id" IS DISTINCT FROM OLD."agent_wallet_id" THEN
    RAISE EXCEPTION 'a ledger account''s kind, currency and holder never change';
  END IF;
  IF NEW."balance" <> OLD."balance" AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'ledger account balances change only through ledger entries';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "ledger_accounts_guard" BEFORE INSERT OR UPDATE ON "ledger_accounts"
  FOR EACH ROW EXECUTE FUNCTION "purser_guard_ledger_account"();

-- One external account per currency, created here so deposit code can rely on it.
CREATE UNIQUE INDEX "ledger_accounts_one_external_per_currency" ON "ledger_accounts" ("currency")
  WHERE "kind" = 'external';

INSERT INTO "ledger_accounts" ("id", "kind", "currency", "updated_at") VALUES
  ('00000000-0000-7000-8000-000000000001', 'external', 'USDC', CURRENT_TIMESTAMP),
  ('00000000-0000-7000-8000-000000000002', 'external', 'USDT', CURRENT_TIMESTAMP);

-- ---------------------------------------------------------------------------------------
-- Audit chain
-- ---------------------------------------------------------------------------------------

-- prev_hash is UNIQUE (schema.prisma), so two writers racing for the same predecessor
-- cannot both commit. This trigger also refuses a link to anything but the newest row, and a
-- row whose seq would sort before the newest one, so following seq order walks the chain.
CREATE FUNCTION "purser_check_audit_link"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  newest record;
  expected text;
BEGIN
  SELECT "seq", "hash" INTO newest FROM "audit_events" ORDER BY "seq" DESC LIMIT 1;
  expected := CASE WHEN FOUND THEN newest."hash" ELSE repeat('0', 64) END;
  IF NEW."prev_hash" IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'audit event must link to the newest event: prev_hash % is not %',
      NEW."prev_hash", expected
      USING ERRCODE = 'check_violation';
  END IF;
  IF FOUND AND NEW."seq" <= newest."seq" THEN
    RAISE EXCEPTION 'audit event seq % does not follow the newest event %', NEW."seq", newest."seq"
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "audit_events_link" BEFORE INSERT ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "purser_check_audit_link"();
