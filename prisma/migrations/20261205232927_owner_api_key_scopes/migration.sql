-- Owner API keys carry scopes and an expiry (issue 38; docs/auth.md, "Owner API keys").
--
-- Keys created before this migration keep working as they did: they get every scope there is
-- today. They do not keep working forever: they expire 90 days after this migration, the
-- console shows when, and the owner replaces each with a scoped key in that time. A key that
-- never expires is a standing risk in a product that moves money; 90 days is the console's
-- default lifetime for a new key.
ALTER TABLE "owner_api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(3),
ADD COLUMN "scopes" TEXT[];

UPDATE "owner_api_keys"
SET "scopes" = ARRAY['read', 'payments:create', 'payments:approve', 'wallet:fund', 'agents:admin', 'policies:admin', 'webhooks:admin']::TEXT[],
    "expires_at" = now() + INTERVAL '90 days';

ALTER TABLE "owner_api_keys" ALTER COLUMN "expires_at" SET NOT NULL;

-- A key that may do nothing is a mistake, and a key without a list would read as "no limits".
ALTER TABLE "owner_api_keys" ADD CONSTRAINT "owner_api_keys_scopes_not_empty" CHECK ("scopes" IS NOT NULL AND cardinality("scopes") >= 1);
