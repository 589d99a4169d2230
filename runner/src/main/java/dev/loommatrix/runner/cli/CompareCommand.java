package dev.loommatrix.runner.cli;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparer;
import dev.loommatrix.core.compare.MarkdownReport;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "compare",
        description = "Compare a candidate run with a baseline, cell by cell and variant by variant. Exit 4 when a"
                + " change is both significant (Mann-Whitney U, Benjamini–Hochberg) and beyond the threshold; 5 with"
                + " --require-verdict when a comparison is inconclusive.")
final class CompareCommand implements Callable<Integer> {

    @Option(
            names = "--baseline",
            required = true,
            paramLabel = "RUN_DIR",
            description = "The run to compare against (a run directory, as run or merge wrote it).")
    Path baseline;

    @Option(
            names = "--candidate",
            required = true,
            paramLabel = "RUN_DIR",
            description = "The run whose changes are judged.")
    Path candidate;

    @Option(
            names = "--format",
            defaultValue = "markdown",
            paramLabel = "markdown|json",
            description = "markdown (for a pull-request comment or job summary) or json (default: markdown).")
    String format;

    @Option(
            names = "--threshold",
            defaultValue = "10",
            paramLabel = "PCT",
            description = "The smallest change that counts, in percent (default: 10).")
    double thresholdPercent;

    @Option(
            names = "--alpha",
            defaultValue = "0.05",
            paramLabel = "P",
            description = "False discovery rate for Benjamini–Hochberg (default: 0.05).")
    double alpha;

    @Option(
            names = "--phase",
            defaultValue = "steady",
            paramLabel = "steady|cold-start",
            description = "steady: each fork's steady state (the median of its measured iterations, or its one run);"
                    + " cold-start: each fork's first iteration (default: steady).")
    String phase;

    @Option(
            names = "--require-verdict",
            description = "Exit 5 when any comparison is inconclusive (a check that decided nothing fails instead of"
                    + " passing).")
    boolean requireVerdict;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!format.equals("markdown") && !format.equals("json")) {
            throw new LoomMatrix.UsageException("--format must be markdown or json, got '" + format + "'");
        }
        Comparer.Phase judged =
                switch (phase) {
                    case "steady" -> Comparer.Phase.STEADY;
                    case "cold-start" -> Comparer.Phase.COLD_START;
                    default ->
                        throw new LoomMatrix.UsageException(
                                "--phase must be steady or cold-start, got '" + phase + "'");
                };
        if (thresholdPercent < 0 || !(alpha > 0 && alpha < 1)) {
            throw new LoomMatrix.UsageException("--threshold must be ≥ 0 and --alpha between 0 and 1");
        }
        RunDirectory before = open(baseline, "--baseline");
        RunDirectory after = open(candidate, "--candidate");
        CompareReport report;
        try {
            report = Comparer.compare(
                    before.readManifest().runId(),
                    before.readCells(),
                    after.readManifest().runId(),
                    after.readCells(),
                    thresholdPercent / 100,
                    alpha,
                    judged);
        } catch (java.io.IOException unreadable) {
            // a file of another schema, or a damaged one: the user's input, said plainly (exit 2)
            throw new LoomMatrix.UsageException(unreadable.getMessage());
        }
        var out = spec.commandLine().getOut();
        if (format.equals("json")) {
            out.println(Json.MAPPER.writeValueAsString(report));
        } else {
            out.print(MarkdownReport.render(report));
        }
        out.flush();
        if (report.regressions() > 0) {
            return ExitCode.REGRESSION.code;
        }
        return requireVerdict && anyInconclusive(report) ? ExitCode.NO_VERDICT.code : ExitCode.OK.code;
    }

    /**
     * Whether the data left any comparison undecided, a budget left a cell unmeasured, or nothing was compared at all
     * (issue #49: every cell skipped on this host is no verdict either).
     */
    static boolean anyInconclusive(CompareReport report) {
        if (report.comparisons().isEmpty()) {
            return true;
        }
        boolean unmeasured = report.ab() != null
                && report.ab().sequential() != null
                && !report.ab().sequential().notMeasured().isEmpty();
        return unmeasured
                || report.comparisons().stream()
                        .anyMatch(c -> c.verdict() == dev.loommatrix.core.compare.Comparison.Verdict.inconclusive);
    }

    /** A run directory the user named, refused plainly (exit 2) when it is not one. */
    static RunDirectory open(Path dir, String option) {
        RunDirectory run = new RunDirectory(dir);
        if (!Files.isRegularFile(run.manifestFile())) {
            throw new LoomMatrix.UsageException(
                    option + " " + dir + " is not a run directory (no run.json); pass the directory `run` wrote");
        }
        return run;
    }
}
