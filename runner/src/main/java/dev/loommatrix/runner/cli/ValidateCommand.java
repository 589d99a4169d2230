package dev.loommatrix.runner.cli;

import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.plan.Planner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "validate", description = "Check a matrix file and report every problem with its line and column.")
final class ValidateCommand implements Callable<Integer> {

    @Mixin
    MatrixOptions options;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        // without --profile every profile is checked too: a typo in one is found now, not when it runs
        Matrix matrix = options.profile == null ? options.loadWithEveryProfile() : options.load();
        int cells = dev.loommatrix.core.plan.ClassFileCheck.check(Planner.plan(matrix))
                .size();
        spec.commandLine()
                .getOut()
                .printf(
                        "%s: ok (%d jdks, %d workloads, %d cells%s)%n",
                        options.matrix,
                        matrix.jdks().size(),
                        matrix.workloads().size(),
                        cells,
                        matrix.profile().map(p -> " with profile " + p).orElse(""));
        return ExitCode.OK.code;
    }
}
