-- A user workload (the user's own JMH jar or program) has one measurement per variant and benchmark (a
-- JMH benchmark with its shared @Param values, as Benchmark.label() writes it): the benchmark joins the
-- keys, '' for the built-in workloads, which have one measurement per variant. A user workload's cell
-- names the variant its speedups are over.
ALTER TABLE samples DROP CONSTRAINT samples_run_id_cell_id_variant_fkey;
ALTER TABLE samples DROP CONSTRAINT samples_pkey;
ALTER TABLE measurements DROP CONSTRAINT measurements_pkey;

ALTER TABLE measurements ADD COLUMN benchmark text NOT NULL DEFAULT '';
ALTER TABLE samples ADD COLUMN benchmark text NOT NULL DEFAULT '';
ALTER TABLE cells ADD COLUMN baseline text;

ALTER TABLE measurements ADD PRIMARY KEY (run_id, cell_id, variant, benchmark);
ALTER TABLE samples ADD PRIMARY KEY (run_id, cell_id, variant, benchmark, repetition, metric);
ALTER TABLE samples ADD FOREIGN KEY (run_id, cell_id, variant, benchmark)
    REFERENCES measurements (run_id, cell_id, variant, benchmark) ON DELETE CASCADE;
