-- Agents sign their outgoing requests (issue 39, docs/identity.md): a request-signing key purpose,
-- when each key last signed and for which host, and the owner's rule of which requests are signed.
-- CreateEnum
CREATE TYPE "RequestSigning" AS ENUM ('always', 'paid_only', 'never');

-- AlterEnum
ALTER TYPE "AgentKeyPurpose" ADD VALUE 'http_signature';

-- AlterTable
ALTER TABLE "agent_keys" ADD COLUMN     "last_signed_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_signed_host" TEXT;

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "request_signing" "RequestSigning" NOT NULL DEFAULT 'always';
