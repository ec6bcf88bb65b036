-- A transaction's audit events written in one statement (docs/audit.md, docs/performance.md).
--
-- Writing them used to take two round trips per chain: lock the chain's head (creating it on a
-- chain's first event), then insert the events with the positions and hashes computed in
-- TypeScript from the head just read. This function does both inside the database, under the
-- same lock, so the head is held only from this statement to the commit.
--
-- The hash stays the one audit-hash.ts defines and the verifier checks: sha256 (hex) of the
-- event's canonical JSON. Only two of its fields depend on the head, the position (chainSeq)
-- and the previous hash (prevHash), and in the canonical JSON (keys sorted) each is a plain
-- string between fixed text. So TypeScript sends each event's canonical JSON cut at those two
-- places (head_part, middle_part, tail_part) and this function joins them around the position
-- and the previous hash it reads under the lock. The insert trigger still refuses any event
-- that does not follow its chain's head, and moves the head along.
--
-- Events arrive grouped by chain, chains in sorted order (the lock order of every writer), in
-- the order they were appended within a chain.
CREATE FUNCTION "purser_append_audit_events"(
  p_chain_ids text[],
  p_ats timestamptz[],
  p_actors text[],
  p_actions text[],
  p_subjects text[],
  p_owner_ids uuid[],
  p_datas jsonb[],
  p_head_parts text[],
  p_middle_parts text[],
  p_tail_parts text[]
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  i int;
  chain text := NULL;
  seq bigint;
  prev text;
  next_hash text;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_chain_ids, 1), 0) LOOP
    IF chain IS DISTINCT FROM p_chain_ids[i] THEN
      chain := p_chain_ids[i];
      -- A chain's first append creates its head at genesis; ON CONFLICT DO NOTHING waits for a
      -- concurrent first append of the same chain to commit, and the SELECT then locks its head.
      SELECT h."last_seq", h."last_hash" INTO seq, prev FROM "audit_chain_heads" h WHERE h."chain_id" = chain FOR UPDATE;
      IF NOT FOUND THEN
        INSERT INTO "audit_chain_heads" ("chain_id", "last_seq", "last_hash") VALUES (chain, 0, repeat('0', 64))
        ON CONFLICT ("chain_id") DO NOTHING;
        SELECT h."last_seq", h."last_hash" INTO seq, prev FROM "audit_chain_heads" h WHERE h."chain_id" = chain FOR UPDATE;
      END IF;
    END IF;
    seq := seq + 1;
    next_hash := encode(sha256(convert_to(p_head_parts[i] || seq::text || p_middle_parts[i] || prev || p_tail_parts[i], 'UTF8')), 'hex');
    INSERT INTO "audit_events" ("chain_id", "chain_seq", "at", "actor", "action", "subject", "owner_id", "data", "prev_hash", "hash")
    VALUES (chain, seq, p_ats[i], p_actors[i], p_actions[i], p_subjects[i], p_owner_ids[i], p_datas[i], prev, next_hash);
    prev := next_hash;
  END LOOP;
END;
$$;
