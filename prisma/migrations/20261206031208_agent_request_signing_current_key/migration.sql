-- One current request-signing key per agent (docs/identity.md): the key a signature is made
-- with is never in doubt, and two requests creating an agent's first key at once make one.
-- Its own migration: a value added to an enum cannot be used in the transaction that adds it.
-- Prisma's schema cannot express a partial index, hence by hand.
CREATE UNIQUE INDEX "agent_keys_current_http_signature" ON "agent_keys" ("agent_id")
  WHERE "purpose" = 'http_signature' AND "revoked_at" IS NULL;
