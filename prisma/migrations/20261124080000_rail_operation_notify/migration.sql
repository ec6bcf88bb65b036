-- Hand-written: a rail operation announces its payment intent (docs/realtime.md), so a caller
-- waiting for an x402 payment's signed header (the operation's row) or its settlement on the
-- rail hears of it on commit instead of reading the table every few milliseconds.
--
-- The message is the one payment_intents' trigger sends: {topic: 'intents', owner_id,
-- intent_id, status}, with the intent's status as it stands. Nothing secret: listeners re-read
-- what they need through the owner-filtered services.

CREATE FUNCTION "purser_notify_rail_operation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('purser_events', json_build_object(
    'topic', 'intents', 'owner_id', i."owner_id", 'intent_id', i."id", 'status', i."status")::text)
     FROM "payment_intents" i
    WHERE i."id" = NEW."payment_intent_id";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "rail_operations_notify" AFTER INSERT OR UPDATE OF "status" ON "rail_operations"
  FOR EACH ROW EXECUTE FUNCTION "purser_notify_rail_operation"();
