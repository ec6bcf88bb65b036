-- One audit chain per owner instead of one global chain (docs/audit.md).
--
-- Until now every audit event linked to the newest event of the whole table, so each append
-- took a table lock shared by all owners. From here on each owner's events form their own
-- chain ("owner:<owner id>"), events without an owner form the "system" chain, and an append
-- locks only its chain's row in audit_chain_heads.
--
-- The events already written formed one global chain, and their hashes are evidence: giving
-- them per-owner links would mean computing new hashes, i.e. rewriting the evidence. So they
-- stay exactly as written (prev_hash and hash untouched) as the closed "legacy" chain, numbered
-- 1, 2, 3, ... in seq order (the old link trigger kept seq order equal to chain order) and
-- verified with the hash they were written with. Nothing is appended to it again.

-- Every chain starts from 64 zeros, so prev_hash is unique per chain at most; (chain_id,
-- chain_seq) below is what keeps a chain from forking.
DROP INDEX "audit_events_prev_hash_key";

ALTER TABLE "audit_events" ADD COLUMN "chain_id" TEXT,
ADD COLUMN "chain_seq" BIGINT;

-- Filling the two new columns of the existing rows is the only UPDATE this table ever gets;
-- the columns a hash covers are not touched.
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_append_only";
UPDATE "audit_events" AS e
   SET "chain_id" = 'legacy', "chain_seq" = numbered."chain_seq"
  FROM (SELECT "seq", row_number() OVER (ORDER BY "seq") AS "chain_seq" FROM "audit_events") AS numbered
 WHERE e."seq" = numbered."seq";
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_append_only";

ALTER TABLE "audit_events" ALTER COLUMN "chain_id" SET NOT NULL,
ALTER COLUMN "chain_seq" SET NOT NULL;

-- CreateTable
CREATE TABLE "audit_chain_heads" (
    "chain_id" TEXT NOT NULL,
    "last_seq" BIGINT NOT NULL,
    "last_hash" TEXT NOT NULL,

    CONSTRAINT "audit_chain_heads_pkey" PRIMARY KEY ("chain_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_chain_id_chain_seq_key" ON "audit_events"("chain_id", "chain_seq");

INSERT INTO "audit_chain_heads" ("chain_id", "last_seq", "last_hash")
SELECT "chain_id", "chain_seq", "hash" FROM "audit_events" ORDER BY "chain_seq" DESC LIMIT 1;

-- ---------------------------------------------------------------------------------------
-- Guards (hand-written)
-- ---------------------------------------------------------------------------------------

-- An event belongs to its owner's chain, or to the system chain when it has no owner; only
-- the rows written before chains existed are in the legacy chain.
ALTER TABLE "audit_events"
  ADD CONSTRAINT "audit_events_chain_seq_positive" CHECK ("chain_seq" >= 1),
  ADD CONSTRAINT "audit_events_chain_matches_owner" CHECK (
    "chain_id" = 'legacy'
    OR "chain_id" = CASE WHEN "owner_id" IS NULL THEN 'system' ELSE 'owner:' || "owner_id"::text END
  );

ALTER TABLE "audit_chain_heads"
  ADD CONSTRAINT "audit_chain_heads_last_seq_not_negative" CHECK ("last_seq" >= 0);

-- The link check moves from "the newest event of the table" to "the head of the event's own
-- chain", and advancing the head is part of inserting the event: an event is accepted only
-- when it is its chain's next one (chain_seq one past the head, prev_hash the head's hash),
-- and the head then names it. A writer that skipped the head lock waits for the holder here
-- and is refused once the head has moved on, so a chain cannot fork or leave a gap.
DROP TRIGGER "audit_events_link" ON "audit_events";
DROP FUNCTION "purser_check_audit_link"();

CREATE FUNCTION "purser_append_audit_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head_seq bigint;
  head_hash text;
BEGIN
  IF NEW."chain_id" = 'legacy' THEN
    RAISE EXCEPTION 'the legacy audit chain is closed: new events go to their owner''s chain'
      USING ERRCODE = 'check_violation';
  END IF;
  UPDATE "audit_chain_heads" SET "last_seq" = NEW."chain_seq", "last_hash" = NEW."hash"
   WHERE "chain_id" = NEW."chain_id" AND "last_seq" = NEW."chain_seq" - 1 AND "last_hash" = NEW."prev_hash";
  IF FOUND THEN
    RETURN NEW;
  END IF;
  -- A chain's first event from a writer that did not create the head first.
  IF NEW."chain_seq" = 1 AND NEW."prev_hash" = repeat('0', 64) THEN
    INSERT INTO "audit_chain_heads" ("chain_id", "last_seq", "last_hash") VALUES (NEW."chain_id", 1, NEW."hash")
    ON CONFLICT ("chain_id") DO NOTHING;
    IF FOUND THEN
      RETURN NEW;
    END IF;
  END IF;
  SELECT "last_seq", "last_hash" INTO head_seq, head_hash FROM "audit_chain_heads" WHERE "chain_id" = NEW."chain_id";
  RAISE EXCEPTION 'audit event must follow the head of chain %: chain_seq % with prev_hash % does not follow chain_seq % with hash %',
    NEW."chain_id", NEW."chain_seq", NEW."prev_hash", coalesce(head_seq, 0), coalesce(head_hash, repeat('0', 64))
    USING ERRCODE = 'check_violation';
END;
$$;

CREATE TRIGGER "audit_events_follow_chain_head" BEFORE INSERT ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "purser_append_audit_event"();

-- A head only moves forward, one event at a time, and is never removed.
CREATE FUNCTION "purser_check_audit_head_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'audit_chain_heads rows are never removed: % is refused', TG_OP;
  END IF;
  IF NEW."chain_id" IS DISTINCT FROM OLD."chain_id" OR NEW."last_seq" IS DISTINCT FROM OLD."last_seq" + 1 THEN
    RAISE EXCEPTION 'audit chain head % only moves forward one event at a time: % to % is refused',
      OLD."chain_id", OLD."last_seq", NEW."last_seq"
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "audit_chain_heads_forward_only" BEFORE UPDATE OR DELETE ON "audit_chain_heads"
  FOR EACH ROW EXECUTE FUNCTION "purser_check_audit_head_move"();
CREATE TRIGGER "audit_chain_heads_no_truncate" BEFORE TRUNCATE ON "audit_chain_heads"
  FOR EACH STATEMENT EXECUTE FUNCTION "purser_check_audit_head_move"();
