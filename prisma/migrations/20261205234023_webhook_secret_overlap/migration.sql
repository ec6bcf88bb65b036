-- Webhook secret rotation with an overlap window (issue 38; docs/webhooks.md, "Rotating the
-- secret"): the secret a rotation replaced is kept, encrypted like the current one, and signs
-- beside it until previous_secret_expires_at; then it is erased.
-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "previous_secret_ciphertext" BYTEA,
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "previous_secret_iv" BYTEA,
ADD COLUMN     "previous_secret_tag" BYTEA;

-- A previous secret is whole (ciphertext, IV, tag and expiry) or absent: never a ciphertext
-- without its expiry, which would sign forever.
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_previous_secret_whole" CHECK (
  ("previous_secret_ciphertext" IS NULL) = ("previous_secret_expires_at" IS NULL)
  AND ("previous_secret_iv" IS NULL) = ("previous_secret_expires_at" IS NULL)
  AND ("previous_secret_tag" IS NULL) = ("previous_secret_expires_at" IS NULL)
);
