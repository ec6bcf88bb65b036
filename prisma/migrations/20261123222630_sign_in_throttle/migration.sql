-- CreateTable
CREATE TABLE "sign_in_throttles" (
    "email_hash" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("email_hash")
);

-- Hand-written: a count of attempts is never negative.
ALTER TABLE "sign_in_throttles" ADD CONSTRAINT "sign_in_throttles_failures_check" CHECK ("failures" >= 0);
