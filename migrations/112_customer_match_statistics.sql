-- Finer statistics for the two customer columns the roster, customer search and appointment search
-- match a needle against (LIKE '%needle%'). For a pattern with no fixed prefix PostgreSQL estimates
-- the share of matching rows by testing the pattern against the column's histogram, 100 sampled
-- values by default: on the bench's 198,000 customers that put 'harris' at 9,171 matches (2,815 in
-- fact), and the roster then hashed the whole store (99,242 buffers, 66-94 ms) instead of probing the
-- store's relationship row of each match (11,000 buffers, about 20 ms). With 1,000 values the
-- estimate is 5,846 and the plan is the probe; the other needles' plans and the planning time did
-- not change measurably (docs/performance/history/round-5.md).
-- lower(name) has its statistics on the expression index that holds it (customers_name_order).
ALTER TABLE customers ALTER COLUMN email SET STATISTICS 1000;
ALTER INDEX customers_name_order ALTER COLUMN 1 SET STATISTICS 1000;
ANALYZE customers;
