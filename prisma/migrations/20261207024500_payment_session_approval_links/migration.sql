-- CreateTable
CREATE TABLE "payment_session_approval_links" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_session_approval_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payment_session_approval_links_token_hash_key" ON "payment_session_approval_links"("token_hash");

-- CreateIndex
CREATE INDEX "payment_session_approval_links_session_id_idx" ON "payment_session_approval_links"("session_id");

-- AddForeignKey
ALTER TABLE "payment_session_approval_links" ADD CONSTRAINT "payment_session_approval_links_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "payment_sessions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_session_approval_links" ADD CONSTRAINT "payment_session_approval_links_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
