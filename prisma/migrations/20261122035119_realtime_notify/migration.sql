-- Hand-written: change notifications for the dashboard's live updates (see docs/realtime.md).
-- `npm run db:migrate:new -- realtime_notify` had no schema
-- difference to write, so this migration holds only the SQL below.
--
-- Every trigger sends one small JSON object on the channel 'purser_events': a topic, the
-- owner it belongs to, and ids. Never balances, amounts or anything secret: a listener
-- re-reads what it needs through the owner-filtered services. NOTIFY is transactional, so
-- listeners hear only committed changes, once per distinct payload per transaction (a
-- ledger transaction posting twice to one wallet still announces it once).

-- ---------------------------------------------------------------------------------------
-- Owner wallet balances: {topic: 'wallet', user_id, wallet_id}
-- ---------------------------------------------------------------------------------------

CREATE FUNCTION "purser_notify_owner_wallet"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('purser_events', json_build_object(
    'topic', 'wallet', 'user_id', NEW."user_id", 'wallet_id', NEW."id")::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "owner_wallets_notify" AFTER UPDATE OF "balance_usdc", "balance_usdt" ON "owner_wallets"
  FOR EACH ROW
  WHEN (OLD."balance_usdc" IS DISTINCT FROM NEW."balance_usdc" OR OLD."balance_usdt" IS DISTINCT FROM NEW."balance_usdt")
  EXECUTE FUNCTION "purser_notify_owner_wallet"();

-- ---------------------------------------------------------------------------------------
-- The owner's agent list: {topic: 'agents', owner_id, agent_id, op}
-- An agent card shows the agent, its wallet and its spending rules, so a change to any of
-- the three announces the agent (wallet and rules as op 'UPDATE').
-- ---------------------------------------------------------------------------------------

CREATE FUNCTION "purser_notify_agent"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed := OLD;
  ELSE
    changed := NEW;
  END IF;
  PERFORM pg_notify('purser_events', json_build_object(
    'topic', 'agents', 'owner_id', changed."owner_id", 'agent_id', changed."id", 'op', TG_OP)::text);
  -- An agent moved to another owner leaves the first owner's list.
  IF TG_OP = 'UPDATE' AND OLD."owner_id" IS DISTINCT FROM NEW."owner_id" THEN
    PERFORM pg_notify('purser_events', json_build_object(
      'topic', 'agents', 'owner_id', OLD."owner_id", 'agent_id', OLD."id", 'op', 'DELETE')::text);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "agents_notify" AFTER INSERT OR UPDATE OR DELETE ON "agents"
  FOR EACH ROW EXECUTE FUNCTION "purser_notify_agent"();

-- For tables keyed by agent_id (agent_wallets, spending_rules).
CREATE FUNCTION "purser_notify_agent_part"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner uuid;
BEGIN
  SELECT "owner_id" INTO owner FROM "agents" WHERE "id" = NEW."agent_id";
  IF FOUND THEN
    PERFORM pg_notify('purser_events', json_build_object(
      'topic', 'agents', 'owner_id', owner, 'agent_id', NEW."agent_id", 'op', 'UPDATE')::text);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "agent_wallets_notify" AFTER INSERT OR UPDATE ON "agent_wallets"
  FOR EACH ROW EXECUTE FUNCTION "purser_notify_agent_part"();

CREATE TRIGGER "spending_rules_notify" AFTER INSERT OR UPDATE ON "spending_rules"
  FOR EACH ROW EXECUTE FUNCTION "purser_notify_agent_part"();

-- ---------------------------------------------------------------------------------------
-- New transactions
-- owner wallet: {topic: 'transactions', user_id, wallet_id, id}
-- agent:        {topic: 'agent_transactions', owner_id, agent_id, id}
-- ---------------------------------------------------------------------------------------

CREATE FUNCTION "purser_notify_owner_transaction"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner uuid;
BEGIN
  SELECT "user_id" INTO owner FROM "owner_wallets" WHERE "id" = NEW."wallet_id";
  IF FOUND THEN
    PERFORM pg_notify('purser_events', json_build_object(
      'topic', 'transactions', 'user_id', owner, 'wallet_id', NEW."wallet_id", 'id', NEW."id")::text);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "owner_transactions_notify" AFTER INSERT ON "owner_transactions"
  FOR EACH ROW EXECUTE FUNCTION "purser_notify_owner_transaction"();

CREATE FUNCTION "purser_notify_agent_transaction"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner uuid;
BEGIN
  SELECT "owner_id" INTO owner FROM "agents" WHERE "id" = NEW."agent_id";
  IF FOUND THEN
    PERFORM pg_notify('purser_events', json_build_object(
      'topic', 'agent_transactions', 'owner_id', owner, 'agent_id', NEW."agent_id", 'id', NEW."id")::text);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "agent_transactions_notify" AFTER INSERT ON "agent_transactions"
  FOR EACH ROW EXECUTE FUNCTION "purser_notify_agent_transaction"();
