package dev.loommatrix.core.result;

import java.util.List;
import java.util.Optional;

/** {@code RUN_DIR/run.json}: which run this is, where and from what; kept current while the run goes. */
public record RunManifest(
        int schemaVersion,
        String runId,
        String startedAt,
        Optional<String> finishedAt,
        RunStatus status,
        String trigger,
        Git git,
        Host host,
        MatrixInfo matrix,
        List<String> cells,
        List<Shard> shards) {

    public RunManifest {
        cells = List.copyOf(cells);
        shards = shards == null ? List.of() : List.copyOf(shards);
    }

    /** A run without shards (one machine ran the whole plan, or one shard of it). */
    public RunManifest(
            int schemaVersion,
            String runId,
            String startedAt,
            Optional<String> finishedAt,
            RunStatus status,
            String trigger,
            Git git,
            Host host,
            MatrixInfo matrix,
            List<String> cells) {
        this(schemaVersion, runId, startedAt, finishedAt, status, trigger, git, host, matrix, cells, List.of());
    }

    /** One shard of a merged run: which part of the plan it ran, and on what host. */
    public record Shard(String runId, String shard, Host host, RunStatus status) {}

    public record Git(String commit, String branch, boolean dirty) {}

    public record Host(
            String os,
            String kernel,
            String cpuModel,
            int cpus,
            long memoryBytes,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<Tuning> tuning) {

        public Host {
            tuning = tuning == null ? Optional.empty() : tuning;
        }

        /**
         * A host whose CPU settings were not read (a shard's, a record written before issue #32). The {@code with…}
         * methods say the rest, so a field added later changes this record only.
         */
        public static Host of(String os, String kernel, String cpuModel, int cpus, long memoryBytes) {
            return new Host(os, kernel, cpuModel, cpus, memoryBytes, Optional.empty());
        }

        /** This host with the CPU settings that add noise, as read when the run started. */
        public Host withTuning(Tuning read) {
            return new Host(os, kernel, cpuModel, cpus, memoryBytes, Optional.of(read));
        }
    }

    /**
     * The host's CPU settings that add noise to measurements (issue #32), where it exposes them: the frequency
     * governor, turbo/boost, SMT, and the CPUs' frequency when the run started.
     *
     * @param notExposed the settings this host does not show (a VM without cpufreq), said rather than guessed
     * @param warnings the settings known to add noise ("governor 'powersave', not 'performance'")
     */
    public record Tuning(
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<String> governor,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<Boolean> boost,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<Boolean> smt,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<Double> mhz,
            List<String> notExposed,
            List<String> warnings) {
        public Tuning {
            notExposed = notExposed == null ? List.of() : List.copyOf(notExposed);
            warnings = warnings == null ? List.of() : List.copyOf(warnings);
        }
    }

    /**
     * The matrix a run planned from.
     *
     * @param id the matrix's declared identity ({@code id:} in matrix.yaml); without one, {@code sha256} is its
     *     identity — a published run's baseline is an earlier run of the same identity
     */
    public record MatrixInfo(
            String file,
            Optional<String> profile,
            String sha256,
            Optional<String> shard,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<String> id) {

        public MatrixInfo {
            id = id == null ? Optional.empty() : id;
        }

        public MatrixInfo(String file, Optional<String> profile, String sha256, Optional<String> shard) {
            this(file, profile, sha256, shard, Optional.empty());
        }

        /** What identifies the matrix across runs: its declared id, else its file's hash. */
        public String identity() {
            return id.map(i -> "id:" + i).orElse("sha256:" + sha256);
        }
    }

    /** The same run with these cells planned (an A/B side's measured cells; a test's run given one more). */
    public RunManifest withCells(List<String> cells) {
        return new RunManifest(
                schemaVersion, runId, startedAt, finishedAt, status, trigger, git, host, matrix, cells, shards);
    }

    public RunManifest finish(String finishedAt, RunStatus status) {
        return new RunManifest(
                schemaVersion, runId, startedAt, Optional.of(finishedAt), status, trigger, git, host, matrix, cells);
    }
}
