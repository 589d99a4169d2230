package dev.loommatrix.runner.cli;

import dev.loommatrix.core.conclude.ConclusionLinks;
import dev.loommatrix.core.conclude.ConclusionsDocument;
import dev.loommatrix.core.conclude.ConclusionsMarkdown;
import dev.loommatrix.core.conclude.RunConclusions;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "report",
        description = "Say what a run concludes: per workload, where virtual threads pay off, make no difference,"
                + " hurt or cannot be told apart (by the headline contrast's interval against a practical band), in"
                + " the fewest rules along the matrix's axes; which cells are not valid and why; and the causes each"
                + " cell measured (pinning, GC, CPU, a pool at its bound, a run too small to tell).")
final class ReportCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "A run directory, as run or merge wrote it.")
    Path runDir;

    @Option(
            names = "--format",
            defaultValue = "markdown",
            paramLabel = "markdown|json",
            description = "markdown (default) or json (schemas/results.schema.json, conclusions).")
    String format;

    @Option(
            names = "--threshold",
            defaultValue = "10",
            paramLabel = "PCT",
            description = "The practical band in percent: a difference within it is no material difference"
                    + " (default: 10, as compare's).")
    double thresholdPercent;

    @Option(
            names = "--site",
            paramLabel = "URL",
            description = "The dashboard the run is published on: each condition links to its cell there (default:"
                    + " to the cell's record in RUN_DIR, cells/<id>.json).")
    String site;

    @Option(
            names = "--out",
            paramLabel = "FILE",
            description = "Write to FILE (atomically) instead of standard output.")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!format.equals("markdown") && !format.equals("json")) {
            throw new LoomMatrix.UsageException("--format must be markdown or json, got '" + format + "'");
        }
        if (!(thresholdPercent >= 0)) {
            throw new LoomMatrix.UsageException("--threshold must be ≥ 0, got " + thresholdPercent);
        }
        RunDirectory run = CompareCommand.open(runDir, "RUN_DIR");
        RunManifest manifest = run.readManifest();
        RunConclusions conclusions = RunConclusions.of(
                RunConclusions.inPlanOrder(run.readCells(), manifest.cells()), thresholdPercent / 100);
        String text = format.equals("json")
                ? Json.MAPPER.writeValueAsString(ConclusionsDocument.of(manifest.runId(), conclusions)) + "\n"
                : ConclusionsMarkdown.render(
                        conclusions,
                        site != null
                                ? ConclusionLinks.dashboard(site, manifest.runId())
                                : ConclusionLinks.runDirectory());
        Output.toFileOrStdout(spec, out, text, "the conclusions of run " + manifest.runId());
        return ExitCode.OK.code;
    }
}
