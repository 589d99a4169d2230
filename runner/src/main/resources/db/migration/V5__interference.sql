-- Other work on the host while each cell ran (issue #32): the mean and peak CPUs used outside the cell and the
-- runner, the threshold it was judged against, and, for a cell flagged disturbed, the record's own words ("measured
-- beside 0.97 CPUs of other work …"). NULL where the record has no interference (before #32, or a skipped cell).
ALTER TABLE cells ADD COLUMN other_cpus_mean double precision;
ALTER TABLE cells ADD COLUMN other_cpus_max double precision;
ALTER TABLE cells ADD COLUMN interference_threshold_cpus double precision;
ALTER TABLE cells ADD COLUMN disturbed text;
