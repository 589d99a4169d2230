-- Each cell's headline contrast (issue #19): the comparison its workload declares, resolved in the cell —
-- the subject, the variant it is compared with (absent for an efficiency against the subject's own bound),
-- and the contrast in words, so Grafana shows the same headline as the dashboard.
ALTER TABLE cells ADD COLUMN headline_kind text;
ALTER TABLE cells ADD COLUMN headline_subject text;
ALTER TABLE cells ADD COLUMN headline_reference text;
ALTER TABLE cells ADD COLUMN headline_words text;
