-- Posting a ledger transaction in one round trip (docs/money-and-ledger.md, "Moving money").
--
-- postLedgerTransaction used to send six statements: read the accounts, lock the owner
-- wallets, lock the agent wallets, lock and check the accounts, insert the transaction,
-- insert its entries. This function does the same, in the same lock order, inside the
-- database, so a posting costs one statement. It adds guards, it removes none: the posting
-- trigger still moves the balances, CHECK (balance >= 0) still refuses an overdraft, the
-- deferred triggers still check each transaction at COMMIT, and entries stay append-only.
-- Errors keep SQLSTATE check_violation (23514) or raise_exception (P0001), whose messages
-- the driver adapters pass through.

-- A UUIDv7 (time first, as Prisma's uuid(7) makes them), so ledger ids keep sorting by
-- creation. PostgreSQL 16 and 17 have no uuidv7(): the random v4 from gen_random_uuid() gets
-- the Unix time in milliseconds in its first 48 bits and version 7 in its version nibble.
CREATE FUNCTION "purser_uuid_v7"() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
              PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
              FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;

-- Posts a balanced ledger transaction and returns its id. The entries are given as three
-- arrays of the same length (account, signed amount, currency). Lock order, the same as
-- everywhere else: owner wallets by id, agent wallets by id, then the non-external accounts
-- by id (the external account is locked by the posting trigger only, to keep that shared row
-- locked for the shortest time). An entry that would take a non-external account below zero
-- is refused with 'insufficient funds: ...' before anything is written.
CREATE FUNCTION "purser_post_ledger_transaction"(
  p_type text,
  p_description text,
  p_payment_intent_id uuid,
  p_account_ids uuid[],
  p_amounts bigint[],
  p_currencies "Currency"[]
) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  posted_id uuid := "purser_uuid_v7"();
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
