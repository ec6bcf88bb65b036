-- Funding an agent in one statement (docs/money-and-ledger.md, "Moving money").
--
-- fundAgent used to send nine statements inside a Prisma transaction: find the owner's wallet
-- and the agent, lock the owner's wallet and read its account, lock the agent's wallet and
-- read its account, post the ledger transaction, insert the owner's and the agent's history
-- rows, read both balances. This function does the same, in the same order and under the same
-- locks, inside the database; on its own it is one statement, so it needs no interactive
-- transaction. It keeps every guard: the posting goes through purser_post_ledger_transaction
-- (its lock order, its overdraft check), the posting trigger moves the balances, the CHECKs and
-- the deferred balance triggers still stand behind it.
--
-- Refusals are answered, not raised, so the caller maps them to its errors; when one is
-- answered nothing has moved (a ledger account created on first use may remain, as it would).

-- The ledger account of a wallet for a kind and currency, created on first use. The caller
-- holds the wallet's lock, which serialises creators; ON CONFLICT covers anyone else.
CREATE FUNCTION "purser_wallet_account"(p_kind "LedgerAccountKind", p_currency "Currency", p_owner_wallet_id uuid, p_agent_wallet_id uuid)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  account_id uuid;
BEGIN
  SELECT a."id" INTO account_id FROM "ledger_accounts" a
   WHERE a."kind" = p_kind AND a."currency" = p_currency
     AND (a."owner_wallet_id" = p_owner_wallet_id OR a."agent_wallet_id" = p_agent_wallet_id);
  IF FOUND THEN
    RETURN account_id;
  END IF;
  INSERT INTO "ledger_accounts" ("id", "kind", "currency", "owner_wallet_id", "agent_wallet_id", "updated_at")
  VALUES ("purser_uuid_v7"(), p_kind, p_currency, p_owner_wallet_id, p_agent_wallet_id, CURRENT_TIMESTAMP)
  ON CONFLICT DO NOTHING;
  SELECT a."id" INTO STRICT account_id FROM "ledger_accounts" a
   WHERE a."kind" = p_kind AND a."currency" = p_currency
     AND (a."owner_wallet_id" = p_owner_wallet_id OR a."agent_wallet_id" = p_agent_wallet_id);
  RETURN account_id;
END;
$$;

-- Owner -> agent. `outcome` is 'funded', or the refusal: 'no_wallet', 'no_agent' (missing,
-- deleted or another owner's: indistinguishable), 'agent_suspended', 'no_agent_wallet',
-- 'insufficient_funds'. p_amount_text is the amount as the owner's history row spells it.
CREATE FUNCTION "purser_fund_agent"(p_owner_id uuid, p_agent_id uuid, p_amount bigint, p_currency "Currency", p_amount_text text)
RETURNS TABLE (
  "outcome" text,
  "owner_wallet_id" uuid,
  "agent_wallet_id" uuid,
  "agent_wallet_address" text,
  "posted_id" uuid,
  "owner_transaction_id" uuid,
  "owner_transaction_description" text,
  "owner_transaction_created_at" timestamptz,
  "agent_transaction_id" uuid,
  "owner_usdc" bigint,
  "owner_usdt" bigint,
  "agent_usdc" bigint,
  "agent_usdt" bigint
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  target record;
  owner_balance bigint;
  owner_account uuid;
  agent_account uuid;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'A funding moves a positive amount, not %', p_amount USING ERRCODE = 'check_violation';
  END IF;

  SELECT w."id" AS "wallet_id", a."id" AS "agent_id", a."name", a."status", aw."id" AS "agent_wallet_id", aw."wallet_address"
    INTO target
    FROM "owner_wallets" w
    LEFT JOIN "agents" a ON a."id" = p_agent_id AND a."owner_id" = w."user_id" AND a."status" <> 'deleted'
    LEFT JOIN "agent_wallets" aw ON aw."agent_id" = a."id"
   WHERE w."user_id" = p_owner_id;
  IF NOT FOUND THEN
    outcome := 'no_wallet';
  ELSIF target."agent_id" IS NULL THEN
    outcome := 'no_agent';
  ELSIF target."status" <> 'active' THEN
    outcome := 'agent_suspended';
  ELSIF target."agent_wallet_id" IS NULL THEN
    outcome := 'no_agent_wallet';
  END IF;
  IF outcome IS NOT NULL THEN
    RETURN NEXT;
    RETURN;
  END IF;

  -- Lock order: the owner's wallet, then the agent's (purser_post_ledger_transaction locks them
  -- again, in the same order). Refused here, under the lock, a losing request in a burst
  -- releases the wallet at once.
  SELECT CASE p_currency WHEN 'USDC' THEN w."balance_usdc" ELSE w."balance_usdt" END INTO owner_balance
    FROM "owner_wallets" w WHERE w."id" = target."wallet_id" FOR UPDATE;
  IF owner_balance < p_amount THEN
    outcome := 'insufficient_funds';
    RETURN NEXT;
    RETURN;
  END IF;
  owner_account := "purser_wallet_account"('owner', p_currency, target."wallet_id", NULL);
  PERFORM 1 FROM "agent_wallets" w WHERE w."id" = target."agent_wallet_id" FOR UPDATE;
  agent_account := "purser_wallet_account"('agent', p_currency, NULL, target."agent_wallet_id");

  posted_id := "purser_post_ledger_transaction"(
    'agent_funding', 'Funding of agent ' || target."name", NULL,
    ARRAY[owner_account, agent_account], ARRAY[-p_amount, p_amount], ARRAY[p_currency, p_currency]);

  INSERT INTO "owner_transactions" ("id", "wallet_id", "type", "description", "to_address", "amount", "currency", "ledger_transaction_id")
  VALUES ("purser_uuid_v7"(), target."wallet_id", 'agent_funding', format('Sent %s %s to %s', p_amount_text, p_currency, target."name"),
          target."wallet_address", p_amount, p_currency, posted_id)
  RETURNING "id", "description", "created_at" INTO owner_transaction_id, owner_transaction_description, owner_transaction_created_at;

  INSERT INTO "agent_transactions" ("id", "agent_id", "type", "amount", "currency", "status", "category", "to_address", "description", "metadata", "ledger_transaction_id")
  VALUES ("purser_uuid_v7"(), target."agent_id", 'deposit', p_amount, p_currency, 'completed', 'funding', target."wallet_address",
          'Funding from owner wallet', jsonb_build_object('owner_transaction_id', owner_transaction_id), posted_id)
  RETURNING "id" INTO agent_transaction_id;

  SELECT w."balance_usdc", w."balance_usdt" INTO owner_usdc, owner_usdt FROM "owner_wallets" w WHERE w."id" = target."wallet_id";
  SELECT w."balance_usdc", w."balance_usdt" INTO agent_usdc, agent_usdt FROM "agent_wallets" w WHERE w."id" = target."agent_wallet_id";
  outcome := 'funded';
  owner_wallet_id := target."wallet_id";
  agent_wallet_id := target."agent_wallet_id";
  agent_wallet_address := target."wallet_address";
  RETURN NEXT;
END;
$$;
