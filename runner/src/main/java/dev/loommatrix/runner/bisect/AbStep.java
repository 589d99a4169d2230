package dev.loommatrix.runner.bisect;

import java.io.PrintStream;
import java.util.List;

/**
 * Runs {@code loom-matrix ab} with these arguments, its console to {@code log}, and returns its exit code: the A/B
 * engine as it is, lockstep pairs, sequential looks and all. The command line supplies it (the bisection sits below
 * the command line and does not reach up into it).
 */
@FunctionalInterface
public interface AbStep {
    int run(List<String> args, PrintStream log) throws Exception;

    /** Runs it with its console written to {@code logFile}; its exit code. */
    default int runLogged(List<String> args, java.nio.file.Path logFile)
            throws java.io.IOException, InterruptedException {
        try (PrintStream log = new PrintStream(
                java.nio.file.Files.newOutputStream(logFile), true, java.nio.charset.StandardCharsets.UTF_8)) {
            return run(args, log);
        } catch (java.io.IOException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new java.io.IOException("the A/B failed: " + e.getMessage(), e);
        }
    }

    /**
     * The arguments of one step's {@code ab}: two matrices, their labels, the threshold (a fraction), the budget,
     * and the settings' backend, profile and cells; its JSON report to {@code out}. Bisection steps and the image
     * A/B alike.
     */
    static List<String> args(
            java.nio.file.Path baselineMatrix,
            String baselineLabel,
            java.nio.file.Path candidateMatrix,
            String candidateLabel,
            double threshold,
            java.time.Duration budget,
            BisectSteps.Settings settings,
            java.nio.file.Path out) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "ab",
                "--baseline-matrix",
                baselineMatrix.toString(),
                "--matrix",
                candidateMatrix.toString(),
                "--baseline-label",
                baselineLabel,
                "--candidate-label",
                candidateLabel,
                "--threshold",
                String.format(java.util.Locale.ROOT, "%.3f", 100 * threshold),
                "--budget",
                budget.toSeconds() + "s",
                "--backend",
                settings.backend(),
                "--format",
                "json",
                "--out",
                out.toString()));
        settings.profile().ifPresent(p -> args.addAll(List.of("--profile", p)));
        settings.cells().forEach(c -> args.addAll(List.of("--cell", c)));
        return args;
    }
}
