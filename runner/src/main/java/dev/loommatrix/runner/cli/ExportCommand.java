package dev.loommatrix.runner.cli;

import dev.loommatrix.core.export.Export;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "export",
        description = "Write a run's results in another tool's format: jmh (JMH's JSON result format, e.g. for"
                + " github-action-benchmark), bmf (Bencher Metric Format) or csv (one row per recorded number).")
final class ExportCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "A run directory, as run or merge wrote it.")
    Path runDir;

    @Option(
            names = "--format",
            required = true,
            paramLabel = "jmh|bmf|csv",
            description = "jmh (JMH's JSON result format), bmf (Bencher Metric Format) or csv (one row per number).")
    String format;

    @Option(
            names = "--out",
            paramLabel = "FILE",
            description = "Write to FILE (atomically) instead of standard output.")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Export.Format which;
        try {
            which = Export.Format.valueOf(format.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new LoomMatrix.UsageException("--format must be jmh, bmf or csv, got '" + format + "'");
        }
        RunDirectory run = CompareCommand.open(runDir, "RUN_DIR");
        RunManifest manifest = run.readManifest();
        List<CellRecord> cells = Export.measured(run.readCells());
        String text =
                switch (which) {
                    case JMH -> Json.MAPPER.writeValueAsString(Export.jmh(cells)) + "\n";
                    case BMF -> Json.MAPPER.writeValueAsString(Export.bmf(cells)) + "\n";
                    case CSV -> Export.csv(manifest, cells);
                };
        Output.toFileOrStdout(
                spec,
                out,
                text,
                which.name().toLowerCase(Locale.ROOT) + " of " + cells.size() + " cells of run " + manifest.runId());
        return ExitCode.OK.code;
    }
}
