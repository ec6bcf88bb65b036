-- CreateTable
CREATE TABLE "rate_limit_counters" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "reset_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("key")
);

-- Hand-written: a counter is not worth a WAL flush per request. An unlogged table skips the WAL
-- (a commit touching only it waits for no disk), is emptied after a crash and is not copied to
-- standbys: either way only the current windows open early.
ALTER TABLE "rate_limit_counters" SET UNLOGGED;

-- Hand-written: a window holds at least the hit that started it.
ALTER TABLE "rate_limit_counters" ADD CONSTRAINT "rate_limit_counters_count_check" CHECK ("count" >= 1);
