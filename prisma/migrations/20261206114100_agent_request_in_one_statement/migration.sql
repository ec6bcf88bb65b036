-- What every agent API request reads first, in one statement (server/src/services/agents/
-- authenticate-agent.ts): the API key found by its public prefix, its agent, and the agent's wallet.
--
-- The caller still decides everything: it compares the key's hash in constant time, checks the
-- DID, the agent's status and the key's revocation, each on what this read answers, so a revoked
-- key or a suspended agent is refused by the very next request. The wallet's balances ride along
-- for GET /balance, which answers them and reads nothing else: on an index lookup of a statement
-- already sent they cost next to nothing, where a read of their own was a second round trip.
--
-- plpgsql because its query is planned once per connection and then reused (an inlined SQL
-- function or a plain statement is planned on every call): on the embedded PGlite this read took
-- 0.25 ms of its thread as a function against 0.58 ms as a plain statement.
CREATE FUNCTION "purser_agent_request_credentials"(p_prefix text)
RETURNS TABLE (
  key_id text,
  key_hash text,
  revoked_at timestamptz,
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
    SELECT k.id::text, k.key_hash, k.revoked_at, k.last_used_at,
           a.id::text, a.did, a.owner_id::text, a.status::text, a.kya_tier::text,
           w.balance_usdc, w.balance_usdt, w.evm_wallet_address
      FROM agent_api_keys k
      JOIN agents a ON a.id = k.agent_id
      LEFT JOIN agent_wallets w ON w.agent_id = a.id
     WHERE k.prefix = p_prefix;
END
$$;
