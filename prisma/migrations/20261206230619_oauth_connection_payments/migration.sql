-- Payments through an OAuth connection (issue 42): each intent names the connection its agent
-- paid through, and what the connection spent is what those intents hold or paid, summed by the
-- gate under the agent wallet's lock (server/src/services/payments/gate-inputs.ts). The running
-- total the connection kept instead is dropped: nothing wrote it, and a sum cannot drift.

ALTER TABLE "oauth_connections" DROP CONSTRAINT "oauth_connections_spent_within_cap";

-- AlterTable
ALTER TABLE "oauth_connections" DROP COLUMN "spent_units";

-- AlterTable
ALTER TABLE "payment_intents" ADD COLUMN     "oauth_connection_id" UUID;

-- CreateIndex
CREATE INDEX "payment_intents_oauth_connection_id_idx" ON "payment_intents"("oauth_connection_id");

-- AddForeignKey
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_oauth_connection_id_fkey" FOREIGN KEY ("oauth_connection_id") REFERENCES "oauth_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- An intent is paid through a connection of its own agent only.
CREATE FUNCTION "purser_intent_connection_of_its_agent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.oauth_connection_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM oauth_connections c WHERE c.id = NEW.oauth_connection_id AND c.agent_id = NEW.agent_id
  ) THEN
    RAISE EXCEPTION 'payment intent % names OAuth connection % of another agent', NEW.id, NEW.oauth_connection_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "payment_intents_connection_of_its_agent"
  BEFORE INSERT OR UPDATE OF "oauth_connection_id" ON "payment_intents"
  FOR EACH ROW WHEN (NEW.oauth_connection_id IS NOT NULL)
  EXECUTE FUNCTION "purser_intent_connection_of_its_agent"();

-- The access token's read (migration *_oauth_authorization_server) without the dropped total.
DROP FUNCTION "purser_oauth_access_credentials"(text);

CREATE FUNCTION "purser_oauth_access_credentials"(p_token_hash text)
RETURNS TABLE (
  token_id text,
  token_scopes text[],
  token_expires_at timestamptz,
  token_revoked_at timestamptz,
  connection_id text,
  resource text,
  client_id text,
  cap_units bigint,
  connection_expires_at timestamptz,
  connection_revoked_at timestamptz,
  last_used_at timestamptz,
  agent_id text,
  did text,
  owner_id text,
  status text,
  kya_tier text,
  balance_usdc bigint,
  balance_usdt bigint,
  evm_wallet_address text
) LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT t.id::text, t.scopes, t.expires_at, t.revoked_at,
           c.id::text, c.resource, c.client_id, c.cap_units, c.expires_at, c.revoked_at, c.last_used_at,
           a.id::text, a.did, a.owner_id::text, a.status::text, a.kya_tier::text,
           w.balance_usdc, w.balance_usdt, w.evm_wallet_address
      FROM oauth_tokens t
      JOIN oauth_connections c ON c.id = t.connection_id
      JOIN agents a ON a.id = c.agent_id
      LEFT JOIN agent_wallets w ON w.agent_id = a.id
     WHERE t.token_hash = p_token_hash AND t.kind = 'access';
END
$$;
