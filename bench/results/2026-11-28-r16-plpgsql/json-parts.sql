-- The function behind README.md's JSON table, as it ran on bbo_r16 (SELECT r16_json(20000), twice).
-- The last loop writes its result into `actor`, a spare variable: the wrapping is what it measures.
CREATE OR REPLACE FUNCTION public.r16_json(n integer)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE a appointments; j jsonb; t0 timestamptz; out text := ''; req jsonb; v uuid; ts timestamptz; b boolean; actor jsonb;
BEGIN
  SELECT * INTO a FROM appointments WHERE store_id = 'd9ce8dd1-39c9-f0f0-1df1-35021b2fb140' AND customer_id IS NULL ORDER BY created_at DESC LIMIT 1;
  t0 := clock_timestamp();
  FOR i IN 1..n LOOP j := bbo_appointment_json(a); END LOOP;
  out := out || 'appointment_json ' || round(extract(epoch FROM clock_timestamp() - t0) * 1e6 / n, 2) || ' us; ';
  req := jsonb_build_object('store_id','d9ce8dd1-39c9-f0f0-1df1-35021b2fb140','unit_id',a.unit_id,'service_id','498a91bc-fbfa-9bde-2251-837d070c83dc','customer_id',null,'guest_name','Bench Guest','guest_email','bench@example.org','starts_at',a.starts_at,'ends_at',a.ends_at,'party_size',1);
  t0 := clock_timestamp();
  FOR i IN 1..n LOOP
    v := (req->>'store_id')::uuid; v := (req->>'unit_id')::uuid; v := (req->>'service_id')::uuid; v := (req->>'customer_id')::uuid;
    ts := (req->>'starts_at')::timestamptz; ts := (req->>'ends_at')::timestamptz; b := coalesce((req->>'override')::boolean, false);
  END LOOP;
  out := out || 'req parse ' || round(extract(epoch FROM clock_timestamp() - t0) * 1e6 / n, 2) || ' us; ';
  actor := '{"store_id":"d9ce8dd1-39c9-f0f0-1df1-35021b2fb140","actor_kind":"merchant","actor_id":"bench","actor_name":"Bench","request_id":"r"}';
  t0 := clock_timestamp();
  FOR i IN 1..n LOOP
    j := jsonb_build_array(bbo_audit_row(actor, now(), 'appointment.created', 'appointment', a.id::text, jsonb_build_object('unit_id', a.unit_id, 'starts_at', bbo_iso(a.starts_at), 'is_override', a.is_override)));
  END LOOP;
  out := out || 'audit json ' || round(extract(epoch FROM clock_timestamp() - t0) * 1e6 / n, 2) || ' us; ';
  j := bbo_appointment_json(a);
  t0 := clock_timestamp();
  FOR i IN 1..n LOOP
    actor := jsonb_build_object($q$replayed$q$, false, $q$body$q$, jsonb_build_object($q$appointment$q$, j, $q$reused$q$, false));
  END LOOP;
  out := out || 'body wrap ' || round(extract(epoch FROM clock_timestamp() - t0) * 1e6 / n, 2) || ' us; ';
  RETURN out;
END $function$

