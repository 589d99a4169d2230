-- loom-matrix results for Grafana (results schema 1), normalized: runs → cells → measurements → samples.
-- Written by `loom-matrix publish --postgres`; every write is an upsert, so publishing again changes nothing.

CREATE TABLE runs (
    run_id          text PRIMARY KEY,
    started_at      timestamptz NOT NULL,
    finished_at     timestamptz,
    status          text NOT NULL,
    trigger         text NOT NULL,
    git_commit      text,
    git_branch      text,
    git_dirty       boolean,
    host_os         text,
    host_kernel     text,
    host_cpu_model  text,
    host_cpus       integer,
    host_memory     bigint,
    matrix_file     text,
    matrix_profile  text,
    matrix_sha256   text
);

CREATE TABLE cells (
    run_id                text NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    cell_id               text NOT NULL,
    jdk                   text NOT NULL,
    vm                    text NOT NULL,
    version               integer NOT NULL,
    os                    text NOT NULL,
    cpus                  numeric NOT NULL,
    cpuset                text NOT NULL,
    parallelism           text NOT NULL,
    max_pool_size         text NOT NULL,
    min_runnable          text NOT NULL,
    workload              text NOT NULL,
    status                text NOT NULL,
    reason                text,
    attested              boolean,
    available_processors  integer,
    java_version          text,
    vm_version            text,
    image                 text,
    image_digest          text,
    backend               text NOT NULL,
    started_at            timestamptz,
    duration_ms           bigint,
    PRIMARY KEY (run_id, cell_id)
);

CREATE TABLE measurements (
    run_id          text NOT NULL,
    cell_id         text NOT NULL,
    variant         text NOT NULL,
    n               integer,
    median_ms       double precision,
    mean_ms         double precision,
    stdev_ms        double precision,
    cv              double precision,
    ci_low_ms       double precision,
    ci_high_ms      double precision,
    ci_level        double precision,
    unstable        boolean,
    lower_bound_ms  double precision,
    efficiency      double precision,
    ceiling_threads bigint,
    error           text,
    PRIMARY KEY (run_id, cell_id, variant),
    FOREIGN KEY (run_id, cell_id) REFERENCES cells (run_id, cell_id) ON DELETE CASCADE
);

-- Every repetition's numbers, one row per metric: raw samples are always kept.
CREATE TABLE samples (
    run_id      text NOT NULL,
    cell_id     text NOT NULL,
    variant     text NOT NULL,
    repetition  integer NOT NULL,
    metric      text NOT NULL,
    value       double precision NOT NULL,
    PRIMARY KEY (run_id, cell_id, variant, repetition, metric),
    FOREIGN KEY (run_id, cell_id, variant) REFERENCES measurements (run_id, cell_id, variant) ON DELETE CASCADE
);

CREATE INDEX cells_by_workload ON cells (workload, jdk, cpus);
CREATE INDEX runs_by_time ON runs (started_at);
