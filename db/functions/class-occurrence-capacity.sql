-- bbo_class_occurrence_capacity (issue 44, docs/decisions/classes.md), one rule of the class waitlist. Every write that decides
-- a seat locks the occurrence's row first (FOR UPDATE) and decides under that lock: see class-fill.sql.

-- An occurrence's own capacity (PATCH /api/v1/classes/occurrences/{id}) as one write.
-- req: {store_id, occurrence_id, capacity (null: the class's)}
CREATE OR REPLACE FUNCTION bbo_class_occurrence_capacity(claim jsonb, actor jsonb, at timestamptz, req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_store uuid := (req->>'store_id')::uuid;
  o class_occurrences;
  c classes;
  event_rows jsonb;
BEGIN
  -- The occurrence's lock (bbo_lock_occurrence: another store's or none is NOT_FOUND), taken one
  -- statement before bbo_class_reseat takes it again (a cancelled one is found, and left unchanged).
  PERFORM bbo_lock_occurrence(v_store, (req->>'occurrence_id')::uuid);
  event_rows := bbo_class_reseat(v_store, NULL, (req->>'occurrence_id')::uuid, (req->>'capacity')::integer, true, at);
  SELECT * INTO o FROM class_occurrences x WHERE x.id = (req->>'occurrence_id')::uuid;
  SELECT * INTO c FROM classes x WHERE x.id = o.class_id;
  RETURN jsonb_build_object('replayed', false, 'body', bbo_write_finish(claim, at,
    jsonb_build_object('occurrence', bbo_class_occurrence_json(o, c)),
    jsonb_build_array(bbo_audit_row(actor, at, 'class_occurrence.capacity_changed', 'class_occurrence', o.id::text,
      jsonb_build_object('capacity', o.capacity))),
    event_rows, actor));
END $$;
