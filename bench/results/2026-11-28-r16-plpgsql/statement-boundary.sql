-- What a statement boundary costs inside plpgsql (round 16): one indexed one-row lookup a loop turn,
-- against two lookups in one statement. Run on the shared PostgreSQL 15, database test.
CREATE TABLE r16_t (id uuid PRIMARY KEY, currency text);
INSERT INTO r16_t SELECT gen_random_uuid(), 'GBP' FROM generate_series(1, 1000);
ANALYZE r16_t;
CREATE OR REPLACE FUNCTION r16_loop(n int, k uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE v text; BEGIN FOR i IN 1..n LOOP SELECT t.currency INTO v FROM r16_t t WHERE t.id = k; END LOOP; END $$;
CREATE OR REPLACE FUNCTION r16_join(n int, k uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE v text; w text; BEGIN FOR i IN 1..n LOOP SELECT t.currency, t2.currency INTO v, w FROM r16_t t, r16_t t2 WHERE t.id = k AND t2.id = k; END LOOP; END $$;
\timing on
SELECT r16_loop(100000, (SELECT id FROM r16_t LIMIT 1));  -- 206.5 ms, 201.1 ms: 2.0 us a statement
SELECT r16_join(100000, (SELECT id FROM r16_t LIMIT 1));  -- 371.2 ms, 376.6 ms: 3.7 us for both lookups in one
