-- Each cell's headline contrast (issue #19): the comparison its workload declares, resolved in the cell —
-- the subject, the variant it is compared with (absent for an efficiency against the subject's own bound),
-- the contrast in words, and its steady-state value with its interval (a speedup's) as the dashboard's tile has
-- it, so Grafana shows the same headline as the dashboard.
ALTER TABLE cells ADD COLUMN headline_kind text;
ALTER TABLE cells ADD COLUMN headline_subject text;
ALTER TABLE cells ADD COLUMN headline_reference text;
ALTER TABLE cells ADD COLUMN headline_words text;
ALTER TABLE cells ADD COLUMN headline_value double precision;
ALTER TABLE cells ADD COLUMN headline_ci_low double precision;
ALTER TABLE cells ADD COLUMN headline_ci_high double precision;
