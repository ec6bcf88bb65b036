-- Purser as the OAuth 2.1 authorization server of its agent API and MCP endpoint (issue 42;
-- server/src/services/oauth/): dynamically registered clients, authorization requests awaiting the
-- owner's consent (and then their one-time code), the connections owners approve and their tokens,
-- stored only as SHA-256 hashes.

-- CreateEnum
CREATE TYPE "OauthTokenKind" AS ENUM ('access', 'refresh');

-- CreateTable
CREATE TABLE "oauth_clients" (
    "id" UUID NOT NULL,
    "client_name" TEXT,
    "client_uri" TEXT,
    "redirect_uris" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_authorization_requests" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_name" TEXT,
    "client_uri" TEXT,
    "redirect_uri" TEXT NOT NULL,
    "scopes" TEXT[],
    "resource" TEXT NOT NULL,
    "state" TEXT,
    "code_challenge" TEXT NOT NULL,
    "owner_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "decision" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "connection_id" UUID,
    "code_hash" TEXT,
    "code_expires_at" TIMESTAMPTZ(3),
    "code_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_authorization_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_connections" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_name" TEXT,
    "client_uri" TEXT,
    "redirect_uri" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "scopes" TEXT[],
    "cap_units" BIGINT,
    "spent_units" BIGINT NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_tokens" (
    "id" UUID NOT NULL,
    "connection_id" UUID NOT NULL,
    "kind" "OauthTokenKind" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "scopes" TEXT[],
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth_authorization_requests_connection_id_key" ON "oauth_authorization_requests"("connection_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_authorization_requests_code_hash_key" ON "oauth_authorization_requests"("code_hash");

-- CreateIndex
CREATE INDEX "oauth_authorization_requests_expires_at_idx" ON "oauth_authorization_requests"("expires_at");

-- CreateIndex
CREATE INDEX "oauth_connections_agent_id_created_at_idx" ON "oauth_connections"("agent_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "oauth_connections_owner_id_idx" ON "oauth_connections"("owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_tokens_token_hash_key" ON "oauth_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "oauth_tokens_connection_id_idx" ON "oauth_tokens"("connection_id");

-- AddForeignKey
ALTER TABLE "oauth_authorization_requests" ADD CONSTRAINT "oauth_authorization_requests_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_authorization_requests" ADD CONSTRAINT "oauth_authorization_requests_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "oauth_connections"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_connections" ADD CONSTRAINT "oauth_connections_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_connections" ADD CONSTRAINT "oauth_connections_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "oauth_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------- guards

-- A connection may do something, its cap is a positive amount, and what was spent through it
-- never passes the cap: the payment that would pass it is refused by the database too.
ALTER TABLE "oauth_connections"
  ADD CONSTRAINT "oauth_connections_scopes_not_empty" CHECK ("scopes" IS NOT NULL AND cardinality("scopes") >= 1),
  ADD CONSTRAINT "oauth_connections_cap_positive" CHECK ("cap_units" IS NULL OR "cap_units" > 0),
  ADD CONSTRAINT "oauth_connections_spent_within_cap" CHECK ("spent_units" >= 0 AND ("cap_units" IS NULL OR "spent_units" <= "cap_units")),
  ADD CONSTRAINT "oauth_connections_revocation_has_reason" CHECK (("revoked_at" IS NULL) = ("revoked_reason" IS NULL));

ALTER TABLE "oauth_tokens"
  ADD CONSTRAINT "oauth_tokens_scopes_not_empty" CHECK ("scopes" IS NOT NULL AND cardinality("scopes") >= 1);

-- Decided once, one way, and only an approval has a connection and a code.
ALTER TABLE "oauth_authorization_requests"
  ADD CONSTRAINT "oauth_authorization_requests_decision" CHECK ("decision" IS NULL OR "decision" IN ('approved', 'denied')),
  ADD CONSTRAINT "oauth_authorization_requests_decided_at" CHECK (("decision" IS NULL) = ("decided_at" IS NULL)),
  ADD CONSTRAINT "oauth_authorization_requests_code_of_approval" CHECK ("code_hash" IS NULL OR ("decision" = 'approved' AND "connection_id" IS NOT NULL));

-- ---------------------------------------------------------------- the access token's read

-- What a request with an OAuth access token reads first, in one statement
-- (server/src/services/oauth/verify-access-token.ts): the token found by its hash, its
-- connection, the connection's agent and that agent's wallet, the same agent and wallet columns
-- purser_agent_request_credentials answers for an API key. The caller decides everything on what
-- this answers (expiry, revocation, resource, the agent's status), so a revoked connection or a
-- suspended agent is refused by the very next request. plpgsql, planned once per connection, for
-- the reason that function gives.
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
  spent_units bigint,
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
           c.id::text, c.resource, c.client_id, c.cap_units, c.spent_units, c.expires_at, c.revoked_at, c.last_used_at,
           a.id::text, a.did, a.owner_id::text, a.status::text, a.kya_tier::text,
           w.balance_usdc, w.balance_usdt, w.evm_wallet_address
      FROM oauth_tokens t
      JOIN oauth_connections c ON c.id = t.connection_id
      JOIN agents a ON a.id = c.agent_id
      LEFT JOIN agent_wallets w ON w.agent_id = a.id
     WHERE t.token_hash = p_token_hash AND t.kind = 'access';
END
$$;
