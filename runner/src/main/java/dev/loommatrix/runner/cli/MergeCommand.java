package dev.loommatrix.runner.cli;

import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunMerger;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "merge",
        description = "Combine shard run directories into one run (idempotent; refuses conflicting results).")
final class MergeCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The merged run directory.")
    Path out;

    @Parameters(arity = "1..*", paramLabel = "SHARD_DIR", description = "Run directories of the shards.")
    List<Path> shards;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        try {
            RunManifest merged = RunMerger.merge(shards, out);
            spec.commandLine()
                    .getOut()
                    .printf(
                            "merged %d shard(s) into %s: run %s, %d cells, %s%n",
                            shards.size(), out, merged.runId(), merged.cells().size(), merged.status());
            return ExitCode.OK.code;
        } catch (RunMerger.Conflict e) {
            throw new LoomMatrix.UsageException(e.getMessage());
        }
    }
}
