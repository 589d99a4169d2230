-- The metric each measurement is judged by, as its cell record says (results schema 1's `metric`): the
-- panels take the direction from here, so a throughput (higher is better) is never read as a time.
ALTER TABLE measurements
    ADD COLUMN metric           text,
    ADD COLUMN metric_unit      text,
    ADD COLUMN metric_direction text CHECK (metric_direction IN ('lower', 'higher')),
    ADD COLUMN metric_median    double precision;

-- Rows published before: judged by wall time, except the load test, judged by its throughput (the median
-- of its samples), as the results readers fill in files written before the field existed.
UPDATE measurements m
SET metric = 'wallMs', metric_unit = 'ms', metric_direction = 'lower', metric_median = m.median_ms
FROM cells c
WHERE c.run_id = m.run_id AND c.cell_id = m.cell_id AND c.workload <> 'http-server' AND m.metric IS NULL;

UPDATE measurements m
SET metric = 'throughputPerSecond', metric_unit = 'req/s', metric_direction = 'higher',
    metric_median = (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s.value)
                     FROM samples s
                     WHERE s.run_id = m.run_id AND s.cell_id = m.cell_id AND s.variant = m.variant
                       AND s.metric = 'throughputPerSecond')
FROM cells c
WHERE c.run_id = m.run_id AND c.cell_id = m.cell_id AND c.workload = 'http-server' AND m.metric IS NULL;
