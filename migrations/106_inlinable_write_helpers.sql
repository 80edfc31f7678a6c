-- The JSON helpers every one-statement write calls (bbo_iso, bbo_audit_row, bbo_appointment_json,
-- migration 100) are declared STABLE, which is what they are: to_char and jsonb_build_object are
-- stable, not immutable. Declared IMMUTABLE over a stable body, PostgreSQL refused to inline them, so
-- each call from a plpgsql write went through the SQL-function executor, which parses, analyses and
-- plans the body afresh in every transaction: about a quarter of a create's database CPU on the bench
-- (perf profile in docs/performance.md, "Round 3"). Declared STABLE, they are inlined into the calling
-- statement's plan, which plpgsql caches for the session. Same results, same callers.
ALTER FUNCTION bbo_iso(timestamptz) STABLE;
ALTER FUNCTION bbo_audit_row(jsonb, timestamptz, text, text, text, jsonb) STABLE;
ALTER FUNCTION bbo_appointment_json(appointments) STABLE;
